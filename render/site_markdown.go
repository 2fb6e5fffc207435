package render

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown converts a publisher's prose (content/*.md) to HTML: GitHub
// tables, strikethrough, task lists and autolinks; heading ids from
// "## Title {#id}" or made from the title. It is safe by construction:
// goldmark drops raw HTML and blanks javascript:, vbscript:, file: and
// data: links (renderer/html without WithUnsafe); the transformer below
// keeps only id and class attributes (no style, so a strict CSP holds) and
// turns images that would load from elsewhere into plain links, so the site
// makes no request off itself.
var markdown = goldmark.New(
	goldmark.WithExtensions(
		extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
		extension.Strikethrough,
		extension.TaskList,
		extension.Linkify,
	),
	goldmark.WithParserOptions(
		parser.WithAutoHeadingID(),
		parser.WithHeadingAttribute(),
		parser.WithASTTransformers(util.Prioritized(selfContained{}, 1000)),
	),
	goldmark.WithRendererOptions(html.WithXHTML()),
)

// Markdown renders publisher prose to HTML that is safe to embed.
func Markdown(src []byte) (template.HTML, error) {
	var b bytes.Buffer
	if err := markdown.Convert(src, &b); err != nil {
		return "", fmt.Errorf("markdown: %w", err)
	}
	return noescape(b.String()), nil
}

// selfContained strips attributes other than id and class, and replaces
// images whose source is not a path on this site by a link to them.
type selfContained struct{}

func (selfContained) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	var images []*ast.Image
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if attrs := n.Attributes(); len(attrs) > 0 {
			keep := make([]ast.Attribute, 0, len(attrs))
			for _, a := range attrs {
				if name := string(a.Name); name == "id" || name == "class" {
					keep = append(keep, a)
				}
			}
			n.RemoveAttributes()
			for _, a := range keep {
				n.SetAttribute(a.Name, a.Value)
			}
		}
		if img, ok := n.(*ast.Image); ok && !localURL(string(img.Destination)) {
			images = append(images, img)
		}
		return ast.WalkContinue, nil
	})
	for _, img := range images {
		link := ast.NewLink()
		link.Destination, link.Title = img.Destination, img.Title
		for c := img.FirstChild(); c != nil; {
			next := c.NextSibling()
			link.AppendChild(link, c)
			c = next
		}
		if !link.HasChildren() {
			link.AppendChild(link, ast.NewString(img.Destination))
		}
		img.Parent().ReplaceChild(img.Parent(), img, link)
	}
}

// localURL reports whether u is a path on this site: no scheme, no host.
func localURL(u string) bool {
	u = strings.TrimSpace(u)
	if strings.HasPrefix(u, "//") || strings.HasPrefix(u, `\\`) {
		return false
	}
	if i := strings.IndexAny(u, ":/?#"); i >= 0 && u[i] == ':' {
		return false
	}
	return true
}
