// Package mailin takes replies by e-mail in (docs/mail.md): a reply to a
// notification comes to its reply address (internal/replyaddr), over SMTP
// (serve --mail-in, with github.com/emersion/go-smtp) or from a mail
// provider's inbound webhook (POST /mail/inbound). A reply is accepted
// only when its address is valid, unexpired and unused, and its sender is
// the person the address was made for; it is then held, not posted: the
// sender gets a single-use link to a small page (GET /mail/confirm/…)
// that shows exactly what will be posted, with Post and Discard. A
// colleague on the same side may confirm it instead, through the inbox
// (dealctl inbox).
//
// The files: parse.go reads the MIME message (text part, HTML made text
// by html.go, attachments); clean.go cuts quoted history and signatures;
// receive.go checks and holds a reply, whichever door it came through,
// and refusal.go names each refusal with its SMTP and HTTP answers;
// smtp.go and web.go (the inbound webhook) are those doors; confirm.go
// serves the page; decide.go decides a held reply once and post.go posts
// it through internal/service.
package mailin
