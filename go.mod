module github.com/fairbench/fairbench

go 1.26.0

require (
	github.com/pelletier/go-toml/v2 v2.4.3 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
)
