package contract

// PageSize is the paged list's size when the request gives none;
// MaxPageSize the largest it takes.
const (
	PageSize    = 20
	MaxPageSize = 100
	// MaxRandomNumber is the largest randomNumber an insert takes (the
	// seeded rows' range, 1 to 10,000).
	MaxRandomNumber = 10000
)

// Page reads the paged list's query: page (from 1, default 1) and size
// (1 to MaxPageSize, default PageSize), each an integer by ParseInt or
// absent or empty. It returns the rows to skip and to take.
func Page(page, size string) (offset, limit int, ok bool) {
	p, s := 1, PageSize
	if page != "" {
		if p, ok = ParseInt(page); !ok || p < 1 {
			return 0, 0, false
		}
	}
	if size != "" {
		if s, ok = ParseInt(size); !ok || s < 1 || s > MaxPageSize {
			return 0, 0, false
		}
	}
	return (p - 1) * s, s, true
}

// NewRow is the insert scenario's request body, bound by each framework's
// own JSON binding: a randomNumber that is a JSON integer. A string, a
// fraction or a missing key fails the binding or leaves it nil.
type NewRow struct {
	RandomNumber *int `json:"randomNumber"`
}

// Valid reports whether the row can be inserted: a randomNumber from 1 to
// MaxRandomNumber.
func (r NewRow) Valid() bool {
	return r.RandomNumber != nil && *r.RandomNumber >= 1 && *r.RandomNumber <= MaxRandomNumber
}
