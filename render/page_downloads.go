package render

// DownloadsPage lists what a reader can take away: the tables as data, the
// README table, and the raw runs exactly as collected.
type DownloadsPage struct {
	Page
	Files []Fact // href in Href
	Runs  []DownloadRun
	Loose []Link // dumps from outside run dirs

	copied, archives int
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

// downloadsPage starts the page; writeRaw adds the runs as it copies them.
func (m *model) downloadsPage() *DownloadsPage {
	p := &DownloadsPage{}
	p.Page = m.newPage("downloads", "downloads.html", "Downloads")
	p.Files = []Fact{
		{Label: "results.json", Href: "results.json", Value: "every cell of every run: medians, geometric means, intervals (kind and level), rank ranges, each repetition with its dump and sha256; every latency-phase and sweep point (phase, offered req/s, share of capacity, send rate, how far sending fell behind, achieved req/s, success, p50/p90/p99/max, connections, dump); every verdict of the runs on show; the verdicts each card and comparison shows; the findings"},
		{Label: "verdicts.csv", Href: "verdicts.csv", Value: "results.json's verdicts, one line per pair of targets within a scenario of one run: run, scenario, metric, a, b (a < b bytewise), ratio of geometric means a ÷ b, lo, hi, level, p, p_adj, family, floor, verdict (a, b or ~), reason, method"},
		{Label: "results.csv", Href: "results.csv", Value: "one line per repetition, in base units (req/s, seconds, bytes), then one per latency or sweep point (its phase column says which; their own columns follow the repetitions')"},
		{Label: "results.md", Href: "results.md", Value: "the README table (columns set in site.toml [results_md]); `fairbench render -readme README.md` writes it into a README"},
	}
	return p
}

// rawFolders are the folders under raw/ that hold raw files: a run's
// folder each, and "files" for dumps from outside run dirs.
func (p *DownloadsPage) rawFolders() []string {
	var out []string
	for _, r := range p.Runs {
		out = append(out, safePath(r.ID))
	}
	if len(p.Loose) > 0 {
		out = append(out, "files")
	}
	return out
}
