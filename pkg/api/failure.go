package api

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"
)

// permanent reports whether a failure to get an answer would fail the same
// way however often it was repeated: a certificate that is not trusted, a
// host name that does not exist, a redirect refused, an answer too large.
// Retrying those only delays the error a user must act on.
func permanent(err error) bool {
	_, redirect := errors.AsType[*RedirectError](err)
	return errors.Is(err, errBodyTooLarge) || redirect || untrustedCertificate(err) != nil ||
		unresolvedHost(err) != "" || plainHTTP(err)
}

// plainHTTP reports whether an https:// request was answered in plain HTTP
// (a sandbox or proxy without TLS): a wrong scheme in the base URL, which
// no retry can fix.
func plainHTTP(err error) bool {
	_, header := errors.AsType[tls.RecordHeaderError](err)
	return errors.Is(err, http.ErrSchemeMismatch) || header
}

// untrustedCertificate returns the verification failure when the server's
// certificate was refused, else nil.
func untrustedCertificate(err error) error {
	if verify, ok := errors.AsType[*tls.CertificateVerificationError](err); ok {
		return verify.Err
	}
	_, authority := errors.AsType[x509.UnknownAuthorityError](err)
	_, hostname := errors.AsType[x509.HostnameError](err)
	_, invalid := errors.AsType[x509.CertificateInvalidError](err)
	if authority || hostname || invalid {
		return err
	}
	return nil
}

// unresolvedHost returns the host name that DNS said does not exist, or "".
// A resolver that timed out or failed is not an answer, and stays transient.
func unresolvedHost(err error) string {
	if dns, ok := errors.AsType[*net.DNSError](err); ok && dns.IsNotFound {
		return dns.Name
	}
	return ""
}

// cause says what went wrong in plain words, without the "Get URL:" that
// net/http puts first (the command's error already names the request).
func cause(err error) string {
	if re, ok := errors.AsType[*RedirectError](err); ok {
		return re.Error()
	}
	if host := unresolvedHost(err); host != "" {
		return fmt.Sprintf("the host name %s does not resolve: check the base URL", host)
	}
	if plainHTTP(err) {
		msg := "the server answered in plain HTTP, not HTTPS: check the base URL's scheme"
		if ue, ok := errors.AsType[*url.Error](err); ok {
			if u, perr := url.Parse(ue.URL); perr == nil && u.Scheme == "https" {
				if ip := net.ParseIP(u.Hostname()); (ip != nil && ip.IsLoopback()) || u.Hostname() == "localhost" {
					msg += fmt.Sprintf(" (a local sandbox serves http://%s)", u.Host)
				}
			}
		}
		return msg
	}
	if cert := untrustedCertificate(err); cert != nil {
		return "the server's certificate is not trusted: " + cert.Error()
	}
	if ue, ok := errors.AsType[*url.Error](err); ok {
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
