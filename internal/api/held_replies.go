package api

import "time"

// HeldReply is a reply by e-mail waiting for confirmation (extension
// "held-replies", docs/mail.md): exactly what posting it will post.
type HeldReply struct {
	ID            string     `json:"id"`
	RequestID     string     `json:"request_id"`
	RequestNumber string     `json:"request_number"`
	RequestTitle  string     `json:"request_title"`
	Sender        *Author    `json:"sender"`
	From          string     `json:"from"` // the address the mail came from
	Subject       string     `json:"subject"`
	Text          string     `json:"text"`
	Format        BodyFormat `json:"format"`
	Files         []HeldFile `json:"files"`
	State         string     `json:"state"` // held, posted or discarded
	ReceivedAt    time.Time  `json:"received_at"`
	ExpiresAt     time.Time  `json:"expires_at"`
}

// HeldFile is an attachment of a held reply.
type HeldFile struct {
	Name        string `json:"name"`
	Size        int64  `json:"size"`
	ContentType string `json:"content_type"`
}
