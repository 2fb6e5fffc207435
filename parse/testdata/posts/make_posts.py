#!/usr/bin/env python3
"""Turns the raw captures in this folder into posts the way people paste them:
parse/testdata/post-*.md. Run from this folder: python3 make_posts.py

Nothing is typed by hand but the prose, headings, prompts and command lines
(the commands in COMMANDS.txt); every number comes from a capture."""
import re

def read(name):
    with open(name, encoding="utf-8", newline="") as f:
        return f.read().rstrip("\n").split("\n")

def body(lines):
    """The output without autocannon's intro ("Running …", "N connections …")."""
    return [l for l in lines if not l.startswith("Running ") and "connections" not in l]

def collapse(lines):
    """A web page's rendering: runs of blanks in a row become one, blank lines go."""
    return [re.sub(r" +", " ", l) for l in lines if l.strip()]

ASCII = str.maketrans({"┌": "+", "┬": "+", "┐": "+", "├": "+", "┼": "+", "┤": "+",
                       "└": "+", "┴": "+", "┘": "+", "─": "-", "│": "|"})

def ascii_borders(lines):
    return [l.translate(ASCII) for l in lines]

def markdown_table(lines):
    """autocannon's tables as a Markdown table: rows kept, the rule under a
    header becomes |---|, the other borders go."""
    out, after_header = [], False
    for l in lines:
        if l.startswith("│"):
            cells = [c.strip() for c in l.strip("│").split("│")]
            out.append("| " + " | ".join(cells) + " |")
            if cells[0] == "Stat":
                out.append("|" + "---|" * len(cells))
        elif l[:1] in "┌├└":
            continue
        else:
            out.append(l)
    return out

def last_frame(lines):
    """What a terminal leaves of a CR-separated progress line."""
    return [l.split("\r")[-1] for l in lines]

def write(name, lines):
    with open("../" + name, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")

ac = {n: read(f"autocannon-9.0.0__plaintext_{n}.stderr.txt") for n in ("Hono", "Express", "Fastify")}
ports = {"Hono": 3102, "Express": 3103, "Fastify": 3104}

# The shape: no intro, padding collapsed, one "Benchmarking" line per run.
post = ["## Full Results", ""]
for n in ("Hono", "Express", "Fastify"):
    post.append(f"🔬 Benchmarking {n} at http://127.0.0.1:{ports[n]}")
    post += collapse(body(ac[n]))
write("post-autocannon-9.0.0__benchmarking_collapsed.md", post)

# Headings, fenced, ASCII borders and a Markdown table, no intro.
post = ["# Plaintext", "", "autocannon, 100 connections, pipelining 10, 3 seconds.", ""]
for n, shape in (("Hono", ascii_borders), ("Express", markdown_table), ("Fastify", ascii_borders)):
    post += [f"### {n}", "", "```"] + shape(body(ac[n])) + ["```", ""]
write("post-autocannon-9.0.0__headings_ascii.md", post)

# List items with indented fences: one whole run after a prompt, one with
# the intro cut but the command line kept.
std = read("autocannon-9.0.0__json_stdlib.stderr.txt")
post = ["Results:", "", "- **stdlib (Go)**:", "", "  ```console",
        "  $ npx autocannon -c 100 -d 3 -p 10 http://127.0.0.1:3101/json"]
post += ["  " + l if l else "" for l in std] + ["  ```", "- Hono:", "  ```",
         "  $ autocannon -c 100 -d 3 -p 10 http://127.0.0.1:3102/plaintext"]
post += ["  " + l for l in collapse(body(ac["Hono"]))] + ["  ```"]
write("post-autocannon-9.0.0__list_fenced_prompt.md", post)

# wrk in fences after a prompt and the command line.
post = ["## wrk", "", "```", "$ wrk -t2 -c64 -d3s http://127.0.0.1:3101/plaintext"]
post += read("wrk-4.1.0__plaintext_stdlib.txt") + ["```", "", "### With the latency distribution", "",
         "```console", "user@bench:~$ wrk -t2 -c64 -d3s --latency http://127.0.0.1:3102/json"]
post += read("wrk-4.1.0__latency_json_hono.txt") + ["```"]
write("post-wrk-4.1.0__fenced_prompt.md", post)

# wrk2 the same way.
post = ["```sh", "$ wrk2 -t2 -c10 -d3s -R1000 --latency http://127.0.0.1:18080/"]
post += read("wrk2-4.0.0__latency_R1000.txt") + ["```"]
write("post-wrk2-4.0.0__fenced_prompt.md", post)

# bombardier after a zsh prompt, the progress bar as the terminal left it.
post = ["```bash", "➜  ~ bombardier -c 64 -d 3s -l http://127.0.0.1:3101/plaintext"]
post += last_frame(read("bombardier-1.2.6__latencies_plaintext_stdlib.txt")) + ["```", "", "Without -l:", "",
         "```", "$ bombardier -c 125 -d 2s http://127.0.0.1:3104/json"]
post += last_frame(read("bombardier-1.2.6__json_route_fastify.txt")) + ["```"]
write("post-bombardier-1.2.6__fenced_prompt.md", post)
