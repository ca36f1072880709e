package api

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
)

// AnswerMayBeLost reports whether a failed write may nevertheless have been
// carried out: the request may have reached the service, and only its
// answer went missing (a 5xx, a timeout, a dropped connection, an answer
// that could not be read). Sending such a write again could create its
// resource twice. A connection that was never made, a 429 and any other
// answer about the request itself say the service did not act.
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
	return errors.As(err, &te) && !notSent(te.Err) && !handshakeRefused(te.Err)
}

// handshakeRefused reports whether TLS refused the server's certificate:
// the request was never written.
func handshakeRefused(err error) bool {
	var verify *tls.CertificateVerificationError
	var authority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &verify) || errors.As(err, &authority) || errors.As(err, &hostname) || errors.As(err, &invalid)
}
