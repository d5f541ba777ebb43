package secret

import "bytes"

// This file holds what each detector needs to find anything, read at a
// fraction of a text's bytes (hasRunOf looks at one byte in n until one
// is in the set): most text, prose, names and URLs, holds none of it, and
// its detectors are then not run at all. Each gate is a necessary
// condition of its detector's finding something; gate_test.go proves the
// ones read from an expression's syntax, and holds InText and
// Scanner.Scan to what they were without gates (reference_test.go).

// armour runs pemArmour where the text holds "-----BEGIN " and putty
// where it may hold "PuTTY-User-Key-File-": when long is false, data holds
// no run of twenty puttyBytes (mayHoldLong); when it is true, putty runs
// where data holds such a run (InText), or where it holds the header
// (hasPuTTY, at memory speed in long text: Scanner).
func armour(data []byte, long, scanner bool) (Finding, bool) {
	if hasPEMBegin(data) {
		if f, ok := pemArmour(data); ok {
			return f, true
		}
	}
	if scanner && hasPuTTY(data) || !scanner && long && hasRunOf(data, &puttyBytes, len(puttyHeader)) {
		return putty(data)
	}
	return Finding{}, false
}

// hasPuTTY reports whether data holds puttyHeader, by its Y, the rarest
// of its bytes in text and markup.
func hasPuTTY(data []byte) bool { return holdsByPivot(data, puttyHeader, 4) }

// pemBegin starts PEM armour (pemArmour).
const pemBegin = "-----BEGIN "

// hasPEMBegin reports whether data holds pemBegin, by its G, the rarest
// of its bytes in text and markup.
func hasPEMBegin(data []byte) bool { return holdsByPivot(data, pemBegin, 7) }

// holdsByPivot reports whether data holds needle: each byte of data equal
// to needle[pivot] (one rare in text) is found at memory speed, and the
// bytes around it compared with needle.
func holdsByPivot(data []byte, needle string, pivot int) bool {
	c := needle[pivot]
	for off := pivot; off < len(data); {
		i := bytes.IndexByte(data[off:], c)
		if i < 0 {
			return false
		}
		i += off
		if i+len(needle)-pivot <= len(data) && string(data[i-pivot:i-pivot+len(needle)]) == needle {
			return true
		}
		off = i + 1
	}
	return false
}

// mayHoldLong reports whether data holds minSegment bytes of wordBytes in
// a row, which putty, aws and layers all need (each needs that many or
// more bytes of a subset of wordBytes in a row): prose seldom does, and
// one look at it then stands for all three gates.
func mayHoldLong(data []byte) bool { return hasRunOf(data, &wordBytes, minSegment) }

// puttyHeader starts a PuTTY key file (putty).
const puttyHeader = "PuTTY-User-Key-File-"

var (
	puttyBytes = byteSet(puttyHeader)
	// awsBytes are the characters of a secret access key as awsNamedRE
	// and awsSecretRE read it: [A-Za-z0-9/+], and under (?i) also the
	// letters that fold to s and k, ſ (U+017F) and K (U+212A), whose UTF-8
	// bytes are here.
	awsBytes = byteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+" + "\u017f\u212a")
	// b64Bytes are the bytes b64 maps (base64 and base64url).
	b64Bytes = byteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_")
	// wordBytes are b64Bytes and awsBytes, which hold puttyBytes.
	wordBytes = byteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_" + "\u017f\u212a")
)

// mayHoldAWS reports whether data holds what aws needs: both of its forms
// end in 40 characters of awsBytes in a row, each character one byte or
// more of them.
func mayHoldAWS(data []byte) bool { return hasRunOf(data, &awsBytes, 40) }

// mayHoldLayers reports whether data holds what layers needs: every run it
// reads starts with a segment of at least minSegment base64 characters.
func mayHoldLayers(data []byte) bool { return hasRunOf(data, &b64Bytes, minSegment) }

// quotedValue reports whether data holds ':' or '=' followed by a quote,
// perhaps after blanks and a backslash, as every member membersNamed finds
// is: jwkText finds nothing without one, and prose seldom has one.
func quotedValue(data []byte) bool {
	for _, sep := range [2]byte{':', '='} {
		for off := 0; ; {
			i := bytes.IndexByte(data[off:], sep)
			if i < 0 {
				break
			}
			i += off
			v := i + 1
			for v < len(data) && (data[v] == ' ' || data[v] == '\t') {
				v++
			}
			if v < len(data) && data[v] == '\\' {
				v++
			}
			if v < len(data) && (data[v] == '"' || data[v] == '\'') {
				return true
			}
			off = i + 1
		}
	}
	return false
}
