package machine

// ShellQuote quotes s as one word for a POSIX shell: s itself when it
// holds only characters no shell treats specially, else in single quotes.
// A command printed for a user to paste goes through it.
func ShellQuote(s string) string { return shellQuote(s) }
