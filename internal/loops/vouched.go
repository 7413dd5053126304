package loops

import "path/filepath"

// Voucher says which bytes of a loop file are in force
// (docs/signing.md#only-a-signed-warrant-is-in-force). Loading asks it of
// every loop file it reads, `extends` parents included; a Cache made
// WithVoucher then parses the version in force in place of the file's
// bytes.
type Voucher interface {
	Vouch(name string, data []byte) Vouched
}

// Vouched is a Voucher's answer for one file's bytes.
type Vouched struct {
	// InForce: the bytes as they stand are in force.
	InForce bool
	// Bytes is the version in force when the file's bytes are not (nil:
	// none, so the loop allows nothing).
	Bytes []byte
	// Note says why the file's bytes are not in force, for the agent and
	// the person ("loop fix has unsigned changes: …").
	Note string
}

// WithVoucher returns a cache that loads through c's parses (none when c
// is nil) and puts v's version in force for every loop file it reads.
func (c *Cache) WithVoucher(v Voucher) *Cache {
	if v == nil {
		return c
	}
	if c == nil {
		c = &Cache{}
	}
	base := c
	if c.base != nil {
		base = c.base
	}
	return &Cache{base: base, vouch: v}
}

// store is the cache holding the parses.
func (c *Cache) store() *Cache {
	if c != nil && c.base != nil {
		return c.base
	}
	return c
}

// inForce is l (parsed from data at path) as the voucher puts it in
// force. A version other than the file's is parsed from its own bytes and
// then takes every ask, never and reserved entry the file adds — a
// narrowing needs no signature — but none of its allow entries, triggers
// or parent. With no version in force, the loop keeps only the file's
// ask, never and reserved entries and allows nothing, its parent's allow
// entries included.
func (c *Cache) inForce(path string, data []byte, l *Loop) (*Loop, error) {
	if c == nil || c.vouch == nil {
		return l, nil
	}
	v := c.vouch.Vouch(nameOf(path), data)
	if v.InForce {
		return l, nil
	}
	var m Loop
	if v.Bytes != nil {
		signed, err := c.store().parse(path, v.Bytes)
		if err != nil {
			return nil, err
		}
		m = *signed
		m.Warrant.Ask = unionItems("", signed.Warrant.Ask, l.Warrant.Ask)
		m.Warrant.Never = unionItems("", signed.Warrant.Never, l.Warrant.Never)
		m.Reserved = unionItems("", signed.Reserved, l.Reserved)
	} else {
		m = *l
		m.Warrant = Warrant{Ask: l.Warrant.Ask, Never: l.Warrant.Never}
		m.allowsNothing = true
	}
	m.Unsigned = v.Note
	return &m, nil
}

// stripAllows empties every allow list of l (a loop with no version in
// force, after its parent was folded in).
func stripAllows(l *Loop) *Loop {
	m := *l
	m.Warrant = Warrant{Ask: l.Warrant.Ask, Never: l.Warrant.Never}
	return &m
}

func nameOf(path string) string {
	base := filepath.Base(path)
	return base[:len(base)-len(FileSuffix)]
}

// joinNotes joins two loops' notes on what is not in force.
func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "", a == b:
		return a
	}
	return a + "; " + b
}
