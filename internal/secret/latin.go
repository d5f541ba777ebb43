package secret

// AsLatin maps a look-alike, full-width or mathematical styled letter or
// digit to the ASCII one it imitates; other runes are returned as they are.
func AsLatin(r rune) rune {
	switch {
	case r < 0x80:
		return r
	case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
		return r - 0xFF01 + '!'
	case r >= 0x1D400 && r <= 0x1D6A3: // mathematical alphanumerics: 13 styles of A-Z a-z
		if k := (r - 0x1D400) % 52; k < 26 {
			return 'A' + k
		} else {
			return 'a' + k - 26
		}
	case r >= 0x1D7CE && r <= 0x1D7FF: // mathematical digits: 5 styles of 0-9
		return '0' + (r-0x1D7CE)%10
	case r >= 0x24B6 && r <= 0x24CF: // circled capitals
		return 'A' + r - 0x24B6
	case r >= 0x24D0 && r <= 0x24E9: // circled small letters
		return 'a' + r - 0x24D0
	}
	if r >= 0xAB70 && r <= 0xABBF { // Cherokee small letters, which case folding makes of capitals
		r -= 0xAB70 - 0x13A0
	}
	if l, ok := Lookalikes[r]; ok {
		return l
	}
	return r
}

// Lookalikes are letters of other scripts that look like Latin letters.
var Lookalikes = map[rune]rune{
	// Cyrillic
	'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x',
	'і': 'i', 'ї': 'i', 'ј': 'j', 'ѕ': 's', 'һ': 'h', 'ԁ': 'd', 'ӏ': 'l', 'ԛ': 'q', 'ԝ': 'w', 'ү': 'y', 'ɡ': 'g',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'У': 'Y', 'Х': 'X',
	'І': 'I', 'Ј': 'J', 'Ѕ': 'S', 'Ԛ': 'Q', 'Ԝ': 'W', 'Ү': 'Y', 'Ӏ': 'I',
	// Greek
	'α': 'a', 'ο': 'o', 'ι': 'i', 'ν': 'v', 'κ': 'k', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x', 'ϲ': 'c', 'ϳ': 'j',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	// Armenian
	'օ': 'o', 'ս': 'u', 'ց': 'g', 'հ': 'h', 'ո': 'n', 'զ': 'q',
	// phonetic letters, small capitals and dotless i
	'ɑ': 'a', 'ɩ': 'i', 'ʋ': 'u', 'ɒ': 'a', 'ɜ': 'e', 'ɔ': 'o',
	'ı': 'i', 'ᴀ': 'a', 'ʙ': 'b', 'ᴄ': 'c', 'ᴅ': 'd', 'ᴇ': 'e', 'ꜰ': 'f', 'ɢ': 'g', 'ʜ': 'h', 'ɪ': 'i', 'ᴊ': 'j', 'ᴋ': 'k',
	'ʟ': 'l', 'ᴍ': 'm', 'ɴ': 'n', 'ᴏ': 'o', 'ᴘ': 'p', 'ʀ': 'r', 'ꜱ': 's', 'ᴛ': 't', 'ᴜ': 'u', 'ᴠ': 'v', 'ᴡ': 'w', 'ʏ': 'y', 'ᴢ': 'z',
	// Cherokee capitals (Unicode's confusables)
	'\u13AA': 'A', '\u13F4': 'B', '\u13DF': 'C', '\u13A0': 'D', '\u13AC': 'E', '\u13C0': 'G', '\u13BB': 'H', '\u13AB': 'J',
	'\u13E6': 'K', '\u13DE': 'L', '\u13B7': 'M', '\u13E2': 'P', '\u13A1': 'R', '\u13DA': 'S', '\u13A2': 'T', '\u13D9': 'V',
	'\u13B3': 'W', '\u13C3': 'Z',
	// Lisu letters (Unicode's confusables)
	'\uA4D0': 'B', '\uA4D1': 'P', '\uA4D2': 'd', '\uA4D3': 'D', '\uA4D4': 'T', '\uA4D6': 'G', '\uA4D7': 'K', '\uA4D9': 'J',
	'\uA4DA': 'C', '\uA4DC': 'Z', '\uA4DD': 'F', '\uA4DF': 'M', '\uA4E0': 'N', '\uA4E1': 'L', '\uA4E2': 'S', '\uA4E3': 'R',
	'\uA4E6': 'V', '\uA4E7': 'H', '\uA4EA': 'W', '\uA4EB': 'X', '\uA4EC': 'Y', '\uA4EE': 'A', '\uA4F0': 'E', '\uA4F2': 'I',
	'\uA4F3': 'O', '\uA4F4': 'U',
	// letterlike symbols NFKC keeps
	'\u212E': 'e',
}
