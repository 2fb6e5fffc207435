package contract

// Order is the api scenario's request body.
type Order struct {
	User struct {
		Name  string `json:"name"`
		Email string `json:"email"`
	} `json:"user"`
	Items []struct {
		SKU        string `json:"sku"`
		Qty        int    `json:"qty"`
		PriceCents int    `json:"price_cents"`
	} `json:"items"`
}

// Receipt is the api scenario's answer.
type Receipt struct {
	ID        int      `json:"id"`
	RequestID string   `json:"request_id"`
	Currency  string   `json:"currency"`
	Customer  Customer `json:"customer"`
	Lines     []Line   `json:"lines"`
	ItemCount int      `json:"item_count"`
	Total     int      `json:"total_cents"`
}

// Customer is the receipt's copy of the order's user.
type Customer struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// Line is one item of a receipt.
type Line struct {
	SKU      string `json:"sku"`
	Qty      int    `json:"qty"`
	Subtotal int    `json:"subtotal_cents"`
}

// Reshape builds the receipt of order o for user id, from the x-request-id
// header and the currency query parameter ("USD" when absent or empty).
func Reshape(id int, requestID, currency string, o *Order) Receipt {
	if currency == "" {
		currency = "USD"
	}
	r := Receipt{
		ID:        id,
		RequestID: requestID,
		Currency:  currency,
		Customer:  Customer{Name: o.User.Name, Email: o.User.Email},
		Lines:     make([]Line, 0, len(o.Items)),
	}
	for _, it := range o.Items {
		sub := it.Qty * it.PriceCents
		r.Lines = append(r.Lines, Line{SKU: it.SKU, Qty: it.Qty, Subtotal: sub})
		r.ItemCount += it.Qty
		r.Total += sub
	}
	return r
}

// Person is the validate scenario's schema, as go-playground/validator tags
// (gin reads the same rules from `binding`).
type Person struct {
	Name  string `json:"name" validate:"required,min=1,max=64" binding:"required,min=1,max=64"`
	Email string `json:"email" validate:"required,email" binding:"required,email"`
	Age   int    `json:"age" validate:"required,min=1,max=150" binding:"required,min=1,max=150"`
}
