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
	var he *HTTPError
	if errors.As(err, &he) {
		return he.StatusCode >= 500 || he.StatusCode == http.StatusRequestTimeout
	}
	var de *DecodeError
	if errors.As(err, &de) {
		return true // a success whose body was garbled is a success
	}
	var te *TransportError
	var re *RedirectError
	return errors.As(err, &te) && !errors.As(err, &re) && !notSent(te.Err) && untrustedCertificate(te.Err) == nil
}
