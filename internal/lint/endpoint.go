package lint

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentcards/agentcards/internal/ascii"
	"github.com/agentcards/agentcards/internal/lintrule"
	"github.com/agentcards/agentcards/internal/secret"
	"golang.org/x/text/unicode/norm"
)

// endpoints checks the URLs callers connect to: the interfaces (v1.0
// supportedInterfaces, v0.3 url and additionalInterfaces) and every URL
// of the security schemes (OAuth, OpenID Connect), which carry
// credentials; and, for private addresses only, the icon, which clients
// fetch unasked.
func (l *linter) endpoints(doc map[string]any) {
	ifaces := list(doc["supportedInterfaces"])
	for i, v := range ifaces {
		p := index("supportedInterfaces", i)
		l.iface(member(p, "url"), object(v)["url"], str(object(v)["protocolBinding"]))
	}
	_, hasURL := doc["url"]
	if hasURL {
		l.iface("url", doc["url"], str(doc["preferredTransport"]))
	}
	for i, v := range list(doc["additionalInterfaces"]) {
		p := index("additionalInterfaces", i)
		l.iface(member(p, "url"), object(v)["url"], str(object(v)["transport"]))
	}
	if len(ifaces) == 0 && !hasURL && len(list(doc["additionalInterfaces"])) == 0 {
		l.add(lintrule.InsecureEndpoint, "supportedInterfaces", "the card names no interface URL: clients cannot tell where, or whether over https, to call the agent")
	}
	l.schemeURLs(doc["securitySchemes"], "securitySchemes", 0)
	if u, ok := doc["iconUrl"].(string); ok {
		l.endpoint("iconUrl", u, false)
	}
	if u, ok := doc["documentationUrl"].(string); ok {
		l.endpoint("documentationUrl", u, false)
	}
	if u, ok := object(doc["provider"])["url"].(string); ok {
		l.endpoint("provider.url", u, false)
	}
	// Where a verifier fetches keys (jku, x5u), in a signature's
	// unprotected header or in its protected one, which is base64url JSON.
	for i, v := range list(doc["signatures"]) {
		sig := object(v)
		p := index("signatures", i)
		for _, h := range []struct {
			path   string
			header map[string]any
		}{{member(p, "header"), object(sig["header"])}, {member(p, "protected"), l.protectedHeader(str(sig["protected"]))}} {
			for _, k := range []string{"jku", "x5u"} {
				if u, ok := h.header[k].(string); ok {
					l.endpoint(member(h.path, k), u, true)
				}
			}
		}
	}
}

// protectedHeader is the package's protectedHeader, remembered: a site's
// cards share their signatures' protected headers.
func (l *linter) protectedHeader(b64 string) map[string]any {
	if l.memo == nil {
		return protectedHeader(b64)
	}
	return l.memo.header(b64)
}

// protectedHeader decodes a JWS protected header, or returns nil.
func protectedHeader(b64 string) map[string]any {
	if b64 == "" || len(b64) > 64<<10 {
		return nil
	}
	data, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(b64, "="))
	if err != nil {
		return nil
	}
	if h, ok := flatHeader(data); ok {
		return h
	}
	var h map[string]any
	if json.Unmarshal(data, &h) != nil {
		return nil
	}
	return h
}

// flatHeader reads data as json.Unmarshal reads it into a map, when data
// is a JSON object of plain strings (printable ASCII without escapes, as
// the headers of JWS signatures are), with white space only between
// tokens: ok is false for any other data, which json.Unmarshal is left
// to read.
func flatHeader(data []byte) (h map[string]any, ok bool) {
	i := skipJSONSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return nil, false
	}
	h = map[string]any{}
	i = skipJSONSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return h, skipJSONSpace(data, i+1) == len(data)
	}
	for {
		k, next, ok := plainJSONString(data, i)
		if !ok {
			return nil, false
		}
		i = skipJSONSpace(data, next)
		if i == len(data) || data[i] != ':' {
			return nil, false
		}
		v, next, ok := plainJSONString(data, skipJSONSpace(data, i+1))
		if !ok {
			return nil, false
		}
		h[k] = v // the last of a name given twice, as json.Unmarshal keeps
		i = skipJSONSpace(data, next)
		if i == len(data) {
			return nil, false
		}
		switch data[i] {
		case ',':
			i = skipJSONSpace(data, i+1)
		case '}':
			return h, skipJSONSpace(data, i+1) == len(data)
		default:
			return nil, false
		}
	}
}

// skipJSONSpace is where the JSON white space of data from i ends.
func skipJSONSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// plainJSONString reads the JSON string at data[i] when it holds only
// printable ASCII and no escape, returning its text and where it ends.
func plainJSONString(data []byte, i int) (string, int, bool) {
	if i == len(data) || data[i] != '"' {
		return "", 0, false
	}
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			return string(data[i+1 : j]), j + 1, true
		case c < 0x20 || c > 0x7e || c == '\\':
			return "", 0, false
		}
	}
	return "", 0, false
}

// iface checks an interface's URL; binding is its protocol binding or
// transport, and a gRPC target may be written host:port.
func (l *linter) iface(path string, v any, binding string) {
	u, ok := v.(string)
	if !ok || strings.TrimSpace(u) == "" {
		l.add(lintrule.InsecureEndpoint, path, "the interface has no URL")
		return
	}
	l.endpointOf(path, u, true, strings.EqualFold(binding, "GRPC"))
}

// schemeURLs checks every member of the security schemes whose name ends
// in "url", at any depth (v1.0 nests flows inside a oneof member).
func (l *linter) schemeURLs(v any, path string, depth int) {
	if depth > 8 {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			p := member(path, k)
			if s, ok := v[k].(string); ok && strings.HasSuffix(strings.ToLower(k), "url") {
				l.endpoint(p, s, true)
				continue
			}
			l.schemeURLs(v[k], p, depth+1)
		}
	case []any:
		for i, e := range v {
			l.schemeURLs(e, index(path, i), depth+1)
		}
	}
}

// endpoint checks one URL; secure says it must be https.
func (l *linter) endpoint(path, raw string, secure bool) { l.endpointOf(path, raw, secure, false) }

// endpointOf checks one URL; secure says it must be https, and hostPort
// that it may be a gRPC target, host:port with no scheme. A Linter
// remembers the findings of each URL: the two shapes of a card name the
// same ones, and a site's cards many the same. Its findings depend on
// nothing but raw, secure and hostPort, save the path they are at.
func (l *linter) endpointOf(path, raw string, secure, hostPort bool) {
	if l.memo == nil {
		l.checkEndpoint(path, raw, secure, hostPort)
		return
	}
	k := memoKey{kind: endpointMemo, s: raw, secure: secure, hostPort: hostPort}
	if fs, ok := l.memo.get(k); ok {
		for _, f := range fs {
			l.add(f.rule, path, f.msg)
		}
		return
	}
	from := len(l.out)
	l.checkEndpoint(path, raw, secure, hostPort)
	var fs []memoFinding
	for _, f := range l.out[from:] {
		fs = append(fs, memoFinding{f.Rule, f.Message})
	}
	l.memo.put(k, fs)
}

// checkEndpoint checks one URL, as endpointOf does: what it remembers.
func (l *linter) checkEndpoint(path, raw string, secure, hostPort bool) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return
	}
	scheme, rest, hasScheme := splitScheme(s)
	relative := !hasScheme && (strings.HasPrefix(s, "//") || strings.HasPrefix(s, "\\\\"))
	if relative {
		// "//host/path" takes the scheme of whatever it is read from.
		rest = "//" + strings.TrimLeft(strings.ReplaceAll(s, "\\", "/"), "/")
	} else if !hasScheme {
		if !strings.ContainsAny(s, ".:[") {
			if secure {
				l.add(lintrule.InsecureEndpoint, path, fmt.Sprintf("%s is not a URL", quote(raw, 100)))
			}
			return
		}
		// host:port with no scheme ("10.0.0.5:50051", as gRPC targets
		// are written) still names a host, and says nothing of TLS.
		scheme, rest = "", "//"+s
		if secure && !hostPort {
			defer l.add(lintrule.InsecureEndpoint, path, fmt.Sprintf("%s has no scheme: an HTTP client cannot call it; write https://", quote(raw, 100)))
		}
	}
	if scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss" {
		// As browsers read it (the WHATWG URL standard): a backslash is a
		// slash, and "https:host" or "https:/host" is "https://host".
		rest = "//" + strings.TrimLeft(strings.ReplaceAll(rest, "\\", "/"), "/")
	}
	u, err := url.Parse(rest)
	host := ""
	if err == nil {
		host = u.Hostname()
	} else if h, ok := hostOf(rest); ok {
		host = h // Go refuses what a browser may still read ("%zz" in the path)
	} else if secure {
		l.add(lintrule.InsecureEndpoint, path, fmt.Sprintf("%s is not a URL a client can read: %v", quote(raw, 100), urlProblem(err)))
		return
	}
	if why := privateHost(normalizeHost(host)); why != "" {
		l.add(lintrule.PrivateEndpoint, path, fmt.Sprintf("%s points at %s", quote(raw, 100), why))
	}
	if secure {
		port := ""
		if err == nil {
			port = u.Port()
		}
		switch {
		case host == "":
			l.add(lintrule.InsecureEndpoint, path, fmt.Sprintf("%s names no host", quote(raw, 100)))
			return
		case strings.ContainsAny(host, " \t<>\"{}|\\^`"):
			l.add(lintrule.InsecureEndpoint, path, fmt.Sprintf("%s is not a URL a client can read: its host holds a space or a character hosts cannot", quote(raw, 100)))
			return
		case port != "":
			if n, perr := strconv.Atoi(port); perr != nil || n < 1 || n > 65535 {
				l.add(lintrule.InsecureEndpoint, path, fmt.Sprintf("%s is not a URL a client can read: port %s is out of range", quote(raw, 100), port))
				return
			}
		}
	}
	if secure && relative {
		l.add(lintrule.InsecureEndpoint, path, fmt.Sprintf("%s has no scheme: a client reads it with whatever scheme it found the card by, http included; write https://", quote(raw, 100)))
		return
	}
	if !secure {
		if hasScheme && scriptSchemes[scheme] {
			l.add(lintrule.InsecureEndpoint, path, fmt.Sprintf("%s uses %s, which a client that shows or fetches it runs as script or reads from its own disk", quote(raw, 100), strconv.Quote(scheme+":")))
		}
		return
	}
	if !hasScheme {
		return
	}
	switch scheme {
	case "https", "wss":
	default:
		l.add(lintrule.InsecureEndpoint, path, fmt.Sprintf("%s uses %s, not https", quote(raw, 100), strconv.Quote(scheme+":")))
	}
}

// scriptSchemes are URL schemes that run script or read local files
// where a client renders or fetches a link: never right for an icon, a
// documentation page or a provider's site.
var scriptSchemes = map[string]bool{"javascript": true, "vbscript": true, "data": true, "file": true, "blob": true}

// splitScheme splits "scheme:rest", the scheme lower-cased.
func splitScheme(s string) (scheme, rest string, ok bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", s, false
	}
	for j, r := range s[:i] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || j > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return "", s, false
		}
	}
	// "10.0.0.5:50051", "localhost:8080" and "localhost:8080/a2a" are
	// hosts with ports.
	if portFirst(s[i+1:]) || strings.Contains(s[:i], ".") {
		return "", s, false
	}
	return strings.ToLower(s[:i]), s[i+1:], true
}

// portFirst reports whether p starts with a port number, alone or
// followed by a path, query or fragment.
func portFirst(p string) bool {
	j := 0
	for j < len(p) && p[j] >= '0' && p[j] <= '9' {
		j++
	}
	return j > 0 && (j == len(p) || strings.IndexByte("/?#", p[j]) >= 0)
}

// hostOf is the host of "//host[:port]/...", read without judging the rest.
func hostOf(rest string) (string, bool) {
	h, ok := strings.CutPrefix(rest, "//")
	if !ok {
		return "", false
	}
	if i := strings.IndexAny(h, "/?#"); i >= 0 {
		h = h[:i]
	}
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	if strings.HasPrefix(h, "[") {
		if i := strings.IndexByte(h, ']'); i > 0 {
			return h[1:i], true
		}
		return strings.TrimPrefix(h, "["), true
	}
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		h = h[:i]
	}
	return h, h != ""
}

// urlProblem says why a URL did not parse, without repeating it.
func urlProblem(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// normalizeHost reads a host as resolvers and browsers do: percent
// escapes decoded ("%31%32%37.0.0.1"), full-width digits and letters, and
// the ideographic full stops, as ASCII.
func normalizeHost(h string) string {
	if strings.Contains(h, "%") {
		if d, err := url.PathUnescape(h); err == nil {
			h = d
		}
	}
	if ascii.Is(h) {
		return h
	}
	// As UTS #46 maps hosts: ①②⑦ is 127.
	h = norm.NFKC.String(h)
	return strings.Map(func(r rune) rune {
		switch r {
		case 0x3002, 0xFF0E, 0xFF61:
			return '.'
		}
		return secret.AsLatin(r)
	}, h)
}

// internalSuffixes are DNS names that resolve only inside a network (RFC
// 6762 .local, RFC 8375 .home.arpa, RFC 6761 .localhost, ICANN's
// .internal) or that public DNS points at the loopback address.
var internalSuffixes = []string{
	"localhost", "local", "internal", "intranet", "corp", "home", "lan", "private", "home.arpa", "svc",
	"localdomain", "localtest.me", "lvh.me", "vcap.me",
}

// dashedIPv4 and hexIPv4 are the address at the end of a wildcard DNS
// label: "app-10-0-0-1", "7f000001".
var (
	dashedIPv4 = regexp.MustCompile(`(?:^|-)\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}$`)
	hexIPv4    = regexp.MustCompile(`(?:^|-)[0-9a-f]{8}$`)
)

// ipInName are wildcard DNS services whose names spell the address they
// resolve to ("10.0.0.1.nip.io").
var ipInName = []string{"nip.io", "sslip.io", "xip.io", "traefik.me", "nip.direct"}

// privateHost returns why host is not a public address, or "".
func privateHost(host string) string {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "" {
		return ""
	}
	if i := strings.IndexByte(h, '%'); i >= 0 {
		// An IPv6 zone names an interface of the caller's machine.
		if a, err := netip.ParseAddr(h[:i]); err == nil && a.Is6() {
			return "the link-local address " + h
		}
	}
	if a, ok := parseIP(h); ok {
		return privateAddr(a)
	}
	for _, s := range internalSuffixes {
		if h == s || hasLabelSuffix(h, s) {
			return fmt.Sprintf("the internal host name %q", h)
		}
	}
	if !strings.Contains(h, ".") {
		return fmt.Sprintf("the one-label host name %q, which resolves only inside a private network", h)
	}
	for _, s := range ipInName {
		if hasLabelSuffix(h, s) {
			rest := h[:len(h)-len(s)-1]
			// app-10-0-0-1.nip.io, 7f000001.nip.io, --1.sslip.io (::1)
			last := rest[strings.LastIndexByte(rest, '.')+1:]
			if m := dashedIPv4.FindString(last); m != "" {
				if a, err := netip.ParseAddr(strings.ReplaceAll(strings.TrimPrefix(m, "-"), "-", ".")); err == nil {
					if why := privateAddr(a); why != "" {
						return fmt.Sprintf("%s (through %s)", why, s)
					}
				}
			}
			if m := hexIPv4.FindString(last); m != "" {
				if n, err := strconv.ParseUint(strings.TrimPrefix(m, "-"), 16, 32); err == nil {
					if why := privateAddr(netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})); why != "" {
						return fmt.Sprintf("%s (through %s)", why, s)
					}
				}
			}
			if strings.Contains(last, "--") {
				if a, err := netip.ParseAddr(strings.ReplaceAll(last, "-", ":")); err == nil {
					if why := privateAddr(a); why != "" {
						return fmt.Sprintf("%s (through %s)", why, s)
					}
				}
			}
			// a-b-c-d.nip.io, x.10.0.0.1.nip.io, 10-0-0-1.sslip.io
			labels := strings.Split(rest, ".")
			for i := range labels {
				cand := strings.Join(labels[i:], ".")
				if len(labels)-i == 1 {
					cand = strings.ReplaceAll(labels[i], "-", ".")
				}
				if a, err := netip.ParseAddr(cand); err == nil {
					if why := privateAddr(a); why != "" {
						return fmt.Sprintf("%s (through %s)", why, s)
					}
					return ""
				}
			}
		}
	}
	return ""
}

// parseIP reads an IP address as resolvers do: IPv6 in brackets or not,
// and IPv4 in the forms inet_aton(3) takes ("127.1", "0x7f.0.0.1",
// "2130706433", "017700000001").
func parseIP(h string) (netip.Addr, bool) {
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if a, err := netip.ParseAddr(h); err == nil {
		return a, true
	}
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 0, 32) // 0x.. hex, 0.. octal, else decimal
		if p == "" || err != nil {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	last := len(nums) - 1
	for i, n := range nums[:last] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (24 - 8*i)
	}
	if nums[last] >= 1<<(8*(4-last)) {
		return netip.Addr{}, false
	}
	v |= nums[last]
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// special are IPv4 and IPv6 ranges that are not public unicast addresses
// (RFC 6890), beyond what netip's predicates know.
var special = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "the \"this network\" address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "the carrier-grade NAT address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "the IETF protocol address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "the benchmarking address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "the reserved address"},
	{netip.MustParsePrefix("fec0::/10"), "the site-local address"},
	{netip.MustParsePrefix("192.0.2.0/24"), "the documentation address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "the documentation address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "the documentation address"},
	{netip.MustParsePrefix("2001:db8::/32"), "the documentation address"},
	{netip.MustParsePrefix("3fff::/20"), "the documentation address"},
	{netip.MustParsePrefix("100::/64"), "the discard-only address"},
}

// ipv4Compatible is the deprecated ::a.b.c.d form of an IPv4 address
// (RFC 4291), which some stacks still route as IPv4.
var ipv4Compatible = netip.MustParsePrefix("::/96")

// nat64 and sixToFour are IPv6 prefixes that carry an IPv4 address.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// privateAddr returns why a is not a public address, or "".
func privateAddr(a netip.Addr) string {
	a = a.Unmap()
	// An IPv6 address that carries an IPv4 one: NAT64 (64:ff9b::/96) and
	// 6to4 (2002::/16).
	if a.Is6() {
		b := a.As16()
		if nat64.Contains(a) {
			return privateAddr(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		}
		if sixToFour.Contains(a) {
			return privateAddr(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
		}
		if ipv4Compatible.Contains(a) && !a.IsLoopback() && !a.IsUnspecified() {
			return privateAddr(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		}
	}
	s := a.String()
	switch {
	case a.IsLoopback():
		return "the loopback address " + s
	case a.IsPrivate():
		return "the private address " + s
	case a.IsLinkLocalUnicast():
		return "the link-local address " + s
	case a.IsUnspecified():
		return "the unspecified address " + s
	case a.IsMulticast():
		return "the multicast address " + s
	}
	for _, sp := range special {
		if sp.prefix.Contains(a) {
			return sp.what + " " + s
		}
	}
	return ""
}

// hasLabelSuffix reports whether host ends in "." + suffix, without
// building that string (privateHost asks it of every suffix it knows).
func hasLabelSuffix(host, suffix string) bool {
	n := len(host) - len(suffix)
	return n > 0 && host[n-1] == '.' && host[n:] == suffix
}
