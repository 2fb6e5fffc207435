package rundir

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
)

// SHA256 is the sha256 of a dump's bytes as run.json and parse's
// Source.SHA256 record it: 64 lowercase hex digits. A dump read whole is checked
// against the sum its records carry with this.
func SHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ReaderSHA256 is SHA256 of everything r holds, read in pieces.
func ReaderSHA256(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
