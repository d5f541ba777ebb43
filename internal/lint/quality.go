package lint

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/agentcards/agentcards/internal/ascii"
	"github.com/agentcards/agentcards/internal/lintrule"
	"golang.org/x/text/cases"
)

// Description limits, in characters and words.
const (
	minAgentDescription, minAgentWords = 40, 6
	minSkillDescription, minSkillWords = 25, 4
	maxAgentDescription                = 1000
	maxSkillDescription                = 600
)

// semverRE is Semantic Versioning 2.0.0's own expression.
var semverRE = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// quality checks what makes an agent easy to choose and to trust.
func (l *linter) quality(doc map[string]any) {
	d := str(doc["description"])
	l.description("description", d, ascii.Is(d), func() string { return "the agent's" }, minAgentDescription, minAgentWords, maxAgentDescription)
	if strings.TrimSpace(str(object(doc["provider"])["organization"])) == "" {
		l.add(lintrule.NoProvider, "provider", "no provider organization")
	}
	switch d := strings.TrimSpace(str(doc["documentationUrl"])); {
	case d == "":
		l.add(lintrule.NoDocumentationURL, "documentationUrl", "no documentation URL")
	case !absoluteURL(d):
		l.add(lintrule.NoDocumentationURL, "documentationUrl", fmt.Sprintf("the documentation URL %s is not an absolute http(s) URL", quote(d, 80)))
	}
	switch v := doc["version"].(type) {
	case string:
		if !semverRE.MatchString(v) {
			msg := fmt.Sprintf("version %s is not a semantic version", quote(v, 40))
			if semverRE.MatchString(strings.TrimPrefix(strings.TrimPrefix(v, "v"), "V")) {
				msg += fmt.Sprintf(" (write %q, without the v)", v[1:])
			}
			l.add(lintrule.VersionNotSemver, "version", msg)
		}
	case nil:
		l.add(lintrule.VersionNotSemver, "version", "no version")
	default:
		l.add(lintrule.VersionNotSemver, "version", "the version is not a string")
	}
	l.skills(list(doc["skills"]))
}

// absoluteURL reports whether s is an absolute http or https URL with a
// host.
func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// description checks one description's length. Characters of Chinese,
// Japanese and Korean count twice: each says about as much as a short
// English word. allASCII says whether d is all ASCII.
func (l *linter) description(path, d string, allASCII bool, whose func() string, minChars, minWords, maxChars int) {
	n, weighted := lengthsOf(strings.TrimSpace(d), allASCII)
	switch {
	case weighted > maxChars:
		size := count(n, "character")
		if weighted != n {
			size += fmt.Sprintf(" (%d, each Chinese, Japanese or Korean one counted twice)", weighted)
		}
		l.add(lintrule.DescriptionLong, path, fmt.Sprintf("%s description is %s, over %d", whose(), size, maxChars))
	case n == 0:
		l.add(lintrule.DescriptionShort, path, whose()+" description is empty")
	// Chinese and Japanese put no spaces between words: a description
	// in them has words enough. Otherwise only whether it has minWords
	// words matters, read no further than that.
	case weighted < minChars || !spaceless(d, allASCII) && countWords(d, minWords) < minWords:
		l.add(lintrule.DescriptionShort, path, fmt.Sprintf("%s description %s is too short to choose by (%s, %s)", whose(), quote(d, 60), count(n, "character"), count(words(d), "word")))
	}
}

// lengths is the length of s in characters, and its weightedLength: for
// ASCII text, both its length in bytes.
func lengths(s string) (n, weighted int) { return lengthsOf(s, ascii.Is(s)) }

// lengthsOf is lengths; allASCII says s is all ASCII (when false, s may
// still be: what lengths counts of ASCII text is its length either way).
func lengthsOf(s string, allASCII bool) (n, weighted int) {
	if allASCII {
		return len(s), len(s)
	}
	return utf8.RuneCountInString(s), weightedLength(s)
}

// weightedLength is the length of s in characters, those of Chinese,
// Japanese and Korean counted twice.
func weightedLength(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x1100 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			n++
		}
	}
	return n
}

// spaceless reports whether s is written in a script that does not put
// spaces between words.
// allASCII says whether s is all ASCII.
func spaceless(s string, allASCII bool) bool {
	if allASCII {
		return false
	}
	return strings.ContainsFunc(s, func(r rune) bool {
		return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
	})
}

// caseFolder folds letter case fully: "Straße" and "STRASSE" are one.
var caseFolder = cases.Fold()

// foldCase is s with its letter case fully folded (ASCII the quick way).
func foldCase(s string) string {
	if ascii.Is(s) {
		return strings.ToLower(s)
	}
	return caseFolder.String(s)
}

// textKey is what two descriptions share when they say the same thing:
// their letters and digits, case folded, one space between words.
func textKey(s string) string { return textKeyOf(s, ascii.Is(s)) }

// textKeyOf is textKey; allASCII says whether s is all ASCII.
func textKeyOf(s string, allASCII bool) string {
	if allASCII {
		return asciiFieldsLower(s, &textKeyBreaks)
	}
	return strings.Join(strings.FieldsFunc(foldCase(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	}), " ")
}

// count is "1 word", "2 words".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// skills checks examples, descriptions and tags.
func (l *linter) skills(skills []any) {
	descs := map[string]int{} // folded description -> first skill
	ids := map[string]int{}   // id -> first skill
	spellings := map[string]string{}
	reportedCase := map[string]bool{}
	seen := map[string]int{} // a skill's tags, how often each
	for i, v := range skills {
		s := object(v)
		p := index("skills", i)
		name := str(s["id"])
		if name == "" {
			name = str(s["name"])
		}
		// Messages name the skill; most skills have none.
		var named string
		who := func() string {
			if named == "" {
				named = "skill " + quote(name, 40)
			}
			return named
		}
		if id, ok := s["id"].(string); ok && id != "" {
			if j, dup := ids[id]; dup {
				l.add(lintrule.DuplicateSkillID, member(p, "id"), fmt.Sprintf("%s has the same id as skills[%d]", who(), j))
			} else {
				ids[id] = i
			}
		}
		if tags, ok := s["tags"]; !ok || len(list(tags)) == 0 {
			l.add(lintrule.SkillNoTags, member(p, "tags"), who()+" has no tags")
		}
		hasExample := false
		for _, e := range list(s["examples"]) {
			if strings.TrimSpace(str(e)) != "" {
				hasExample = true
				break
			}
		}
		if !hasExample {
			l.add(lintrule.SkillNoExamples, member(p, "examples"), who()+" has no examples")
		}
		d := str(s["description"])
		allASCII := ascii.Is(d)
		l.description(member(p, "description"), d, allASCII, func() string { return who() + "'s" }, minSkillDescription, minSkillWords, maxSkillDescription)
		if key := textKeyOf(d, allASCII); key != "" {
			if j, ok := descs[key]; ok {
				l.add(lintrule.DuplicateSkillDesc, member(p, "description"), fmt.Sprintf("%s has the same description as skills[%d]", who(), j))
			} else {
				descs[key] = i
			}
		}
		clear(seen)
		for j, t := range list(s["tags"]) {
			tag, ok := t.(string)
			if !ok {
				continue
			}
			if n := seen[tag]; n > 0 {
				// Once per tag, however often it repeats.
				if n == 1 {
					l.add(lintrule.DuplicateTag, index(member(p, "tags"), j), fmt.Sprintf("%s lists the tag %s more than once", who(), quote(tag, 40)))
				}
				seen[tag]++
				continue
			}
			seen[tag] = 1
			folded := tagKey(tag)
			if other, ok := spellings[folded]; ok && other != tag && !reportedCase[folded+"\x00"+tag] {
				reportedCase[folded+"\x00"+tag] = true
				l.add(lintrule.TagCase, index(member(p, "tags"), j), fmt.Sprintf("the tag %s differs from %s only in letter case, spacing or hyphens", quote(tag, 40), quote(other, 40)))
			} else if !ok {
				spellings[folded] = tag
			}
		}
	}
}

// tagKey is what tags that differ only in letter case, spacing or hyphens
// share: the tag case folded, its words (between white space, hyphens and
// underscores) one space apart.
func tagKey(tag string) string {
	if !ascii.Is(tag) {
		return strings.Join(strings.FieldsFunc(foldCase(tag), isTagBreak), " ")
	}
	return asciiFieldsLower(tag, &tagBreaks)
}

// textKeyBreaks and tagBreaks are the ASCII bytes between the words of a
// text's key (all but letters and digits) and of a tag's (isTagBreak).
var textKeyBreaks, tagBreaks = func() (text, tag [256]bool) {
	for c := range utf8.RuneSelf {
		text[c] = !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9')
		tag[c] = isTagBreak(rune(c))
	}
	return text, tag
}()

// asciiFieldsLower is strings.Join(strings.FieldsFunc(s, breaks), " ")
// lower-cased, for ASCII s (as foldCase lower-cases it): the runs of bytes
// not in breaks, one space between, written in place, in a loop that
// calls nothing (no longer than s: a space stands for one byte or more).
func asciiFieldsLower(s string, breaks *[256]bool) string {
	b := make([]byte, len(s))
	j := 0
	gap := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if breaks[c] {
			gap = true
			continue
		}
		if gap && j > 0 {
			b[j] = ' '
			j++
		}
		gap = false
		b[j] = lowerByte(c)
		j++
	}
	// b is not written to again: the string may share its memory.
	return unsafe.String(unsafe.SliceData(b), j)
}

// isTagBreak reports whether r separates the words of a tag.
func isTagBreak(r rune) bool { return unicode.IsSpace(r) || r == '-' || r == '_' }
