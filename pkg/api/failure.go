package api

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"
)

// permanent reports whether a failure to get an answer would fail the same
// way however often it was repeated: a certificate that is not trusted, a
// host name that does not exist, a redirect refused, an answer too large.
// Retrying those only delays the error a user must act on.
func permanent(err error) bool {
	var re *RedirectError
	return errors.Is(err, errBodyTooLarge) || errors.As(err, &re) || untrustedCertificate(err) != nil ||
		unresolvedHost(err) != ""
}

// untrustedCertificate returns the verification failure when the server's
// certificate was refused, else nil.
func untrustedCertificate(err error) error {
	var verify *tls.CertificateVerificationError
	if errors.As(err, &verify) {
		return verify.Err
	}
	var authority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	if errors.As(err, &authority) || errors.As(err, &hostname) || errors.As(err, &invalid) {
		return err
	}
	return nil
}

// unresolvedHost returns the host name that DNS said does not exist, or "".
// A resolver that timed out or failed is not an answer, and stays transient.
func unresolvedHost(err error) string {
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return dns.Name
	}
	return ""
}

// cause says what went wrong in plain words, without the "Get URL:" that
// net/http puts first (the command's error already names the request).
func cause(err error) string {
	var re *RedirectError
	if errors.As(err, &re) {
		return re.Error()
	}
	if host := unresolvedHost(err); host != "" {
		return fmt.Sprintf("the host name %s does not resolve: check the base URL", host)
	}
	if cert := untrustedCertificate(err); cert != nil {
		return "the server's certificate is not trusted: " + cert.Error()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// tried says how hard the client tried, for an error after retries: "4
// attempts over 12s: ". A single attempt says nothing.
func tried(attempts int, elapsed time.Duration) string {
	if attempts <= 1 {
		return ""
	}
	return fmt.Sprintf("%d attempts over %s: ", attempts, roundElapsed(elapsed))
}

func roundElapsed(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}
