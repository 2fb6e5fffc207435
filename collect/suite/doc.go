// Package suite reads a suite file (suite.toml) and a hosts file
// (hosts.toml): the targets to build and start, the scenarios to ask them
// with the bytes to expect, the load and isolation settings, services and
// SSH hosts. It fills in defaults, checks limits and meaning, and reports
// every problem as file:line: key: message.
//
// suite runs nothing: package collect builds, gates and measures what a
// Suite describes.
package suite
