// Package service is the one home of what a write on a deal does beyond
// storing it: creating a request, editing it (fields, assignment, status
// moves) and answering it (a message with its links and files, the
// status move an answer makes, the other side's notifications). Every
// front door calls it: the HTTP handlers of internal/server today, a mail
// receiver or a web page tomorrow. Each door does its own transport
// (decoding, headers, status codes, encoding) and hands the service who
// acts and when; the rules come from internal/domain, the storage from
// internal/store, whose write transaction records the events.
//
// The whole API of the package:
//
//   - New(store, posted) builds a Service; posted, when set, wakes the
//     notification worker after an answer queued notifications.
//   - Actor is who acts: the deal as read for this write (its parties and
//     people), the actor's seat, their e-mail as notifications name it,
//     and domain.Caller (side, access, the key's access). NewActor builds
//     it from rows a door already read; Service.ActorFor reads them for a
//     door that has only a person (a confirmed e-mail reply).
//   - Every write takes ctx, the Actor and now, the one clock of the
//     call: MayCreate and CreateRequest; MayUpdate and UpdateRequest;
//     MayAnswer and Answer. The May functions say, before a door reads a
//     body, whether the actor may make the call at all; the write checks
//     again. ActorFor's ErrNoSeat is a person who may not act on the deal.
//   - Answer's Post carries the body (api.MessageCreate) with what only a
//     door knows: the message's Source (api, email, import, web), its
//     Format, files whose bytes the door stored, and, for a reply a
//     colleague confirms, OnBehalfOf, the person who wrote it. A body may
//     itself claim source import (an answer from a sheet), which only the
//     owning side may.
//
// Errors are *api.ErrorResponse where the caller did something the rules
// refuse (403 with a reason, 409, 422 with every bad field), so that the
// HTTP door writes them as they are and another door can tell a person
// why; any other error is the store's.
package service
