package api

import (
	"errors"
	"net/http"
)

// AnswerMayBeLost reports whether a failed write may nevertheless have been
// carried out: the request may have reached the service, and only its
// answer went missing (a 5xx, a timeout, a dropped connection, an answer
// that could not be read). Sending such a write again could create its
// resource twice. A connection that was never made (refused, a host that
// does not resolve, a certificate refused), a refused redirect, a 429 and
// any other answer about the request itself say the service did not act.
func AnswerMayBeLost(err error) bool {
	if he, ok := errors.AsType[*HTTPError](err); ok {
		return he.StatusCode >= 500 || he.StatusCode == http.StatusRequestTimeout
	}
	if _, ok := errors.AsType[*DecodeError](err); ok {
		return true // a success whose body was garbled is a success
	}
	te, ok := errors.AsType[*TransportError](err)
	_, redirect := errors.AsType[*RedirectError](err)
	return ok && !redirect && !notSent(te.Err) && untrustedCertificate(te.Err) == nil
}
