package render

// DownloadsPage lists what a reader can take away: the tables as data, the
// README table, and the raw runs exactly as collected.
type DownloadsPage struct {
	Page
	Files []Fact // href in Href
	Runs  []DownloadRun
	Loose []Link // dumps from outside run dirs
}

// DownloadRun is one run's raw files.
type DownloadRun struct {
	ID      string
	Archive Link
	Suite   Link
	Files   []Link
	More    int // files not listed; they are in the archive
}

const maxListedFiles = 200

func (m *model) downloadsPage(raws []rawFile, archives map[string]string) *DownloadsPage {
	p := &DownloadsPage{}
	p.Page = m.newPage("downloads", "downloads.html", "Downloads")
	p.Files = []Fact{
		{Label: "results.json", Href: "results.json", Value: "every cell of every run: medians, intervals, tiers, each repetition with its dump and sha256; the findings"},
		{Label: "results.csv", Href: "results.csv", Value: "one line per repetition, in base units (req/s, seconds, bytes)"},
		{Label: "results.md", Href: "results.md", Value: "the README table (columns set in site.toml [results_md]); `fairbench render -readme README.md` writes it into a README"},
	}
	byRun := map[string]*DownloadRun{}
	var order []string
	for _, f := range raws {
		if f.run == "" {
			p.Loose = append(p.Loose, Link{Href: "raw/" + f.rel, Text: f.rel})
			continue
		}
		d := byRun[f.run]
		if d == nil {
			d = &DownloadRun{ID: f.run}
			if a := archives[f.run]; a != "" {
				d.Archive = Link{Href: a, Text: a}
			}
			byRun[f.run] = d
			order = append(order, f.run)
		}
		l := Link{Href: "raw/" + f.rel, Text: f.rel}
		if f.rel == f.run+"/suite.toml" {
			d.Suite = l
		}
		if len(d.Files) < maxListedFiles {
			d.Files = append(d.Files, l)
		} else {
			d.More++
		}
	}
	for _, id := range order {
		p.Runs = append(p.Runs, *byRun[id])
	}
	return p
}
