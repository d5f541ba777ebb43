package lint

import (
	"regexp"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// compileAll compiles every expression compiled on first use (for tests:
// one that does not compile fails at once, not on the first card that
// needs it).
func compileAll() {
	for _, g := range byGate {
		g.once.Do(g.compile)
	}
	markerPatterns()
	foreignPatterns()
	patternWords()
	for _, re := range []func() *regexp.Regexp{benign, quoted, detectionWords, attackWords, markdownComment, markdownDefinition, markdownTitle, hiddenHTML} {
		re()
	}
}

// lazyRegexp compiles expr on first use: the linter's expressions cost
// nothing to a command that never lints.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// injection returns the phrase of s addressed to a model, or "".
func injection(s string, example bool) string {
	// Markers need their punctuation, or a phrase the folded text holds.
	folded := fold(s)
	if mayHoldMarker(s) || strings.Contains(folded, "system prompt") {
		lower := s
		if !isASCII(s) {
			lower = norm.NFKC.String(s)
		}
		lower = strings.ToLower(lower)
		for _, p := range markerPatterns() {
			for _, g := range p.gate {
				if strings.Contains(lower, g) {
					if m := p.re.FindString(lower); m != "" && !citedMention(s, example) {
						return strings.TrimSpace(m)
					}
					break
				}
			}
		}
	}
	if m := matchFolded(folded, example); m != "" {
		if quotedMention(s, example) || citedMention(s, example) {
			return ""
		}
		// A security product's card describes the orders it catches
		// ("text telling the model to ignore its guidelines"); one that
		// starts a sentence is given, not described.
		if describesAttacks(s) && !strings.Contains(". "+folded, ". "+m) {
			return ""
		}
		return m
	}
	// Words taken apart: "i g n o r e previous", "I g n o r e   a l l",
	// "Ign-ore", "IGNORE. ALL. PREVIOUS.". A variant is read only when
	// putting the pieces together makes a word some pattern uses.
	if joined, ok := joinSpacedLetters(folded); ok && makesPatternWord(folded, joined) {
		if m := matchFolded(joined, example); m != "" {
			return m
		}
	}
	for _, v := range []func(string) (string, bool){despaced, unhyphenated, unescapedHTML} {
		if v, ok := v(s); ok {
			if m := matchFolded(fold(v), example); m != "" {
				return m
			}
		}
	}
	if joined, ok := joinShortSentences(folded); ok {
		if m := matchFolded(joined, example); m != "" {
			return m
		}
	}
	if !isASCII(s) {
		if m := foreignInjection(s); m != "" {
			return m
		}
	}
	// Orders in base64, which models read as readily as text.
	for _, d := range base64Texts(s) {
		if m := injection(d, example); m != "" {
			return "base64 for " + m
		}
	}
	return structuralInjection(s, example)
}

// structuralInjection applies the rules of directive.go: links that run
// script or carry a template, text dressed as another role's message,
// sentences that give the reader orders, orders in other languages, and
// all of these once decoded.
func structuralInjection(s string, example bool) string {
	if m := linkOrder(s); m != "" {
		return m
	}
	if strings.ContainsAny(s, "<[#") || strings.Contains(s, "role") || strings.Contains(s, "latform") || strings.Contains(s, "ou are") || strings.Contains(s, "game") || strings.Contains(s, "mode") ||
		strings.Contains(s, "guidance") || strings.Contains(s, "here on") || strings.Contains(s, "ool ") || strings.Contains(s, "unction ") ||
		strings.Contains(s, "perator") {
		if m := roleFrame().FindString(s); m != "" {
			return strings.TrimSpace(m)
		}
	}
	if m := structural(s, example); m != "" && !describesAttacks(s) {
		return m
	}
	if !isASCII(s) || mayBeForeign(s) {
		if m := foreignOrder(s); m != "" {
			return m
		}
	}
	for _, d := range decodedVariants(s) {
		if m := matchFolded(fold(d), example); m != "" {
			return "decoded, " + m
		}
		if m := structural(d, example); m != "" {
			return "decoded, " + m
		}
	}
	return ""
}

// foreignPatterns find overrides and orders to hide in scripts other than
// Latin, in text lower-cased, with format characters dropped and white
// space one space. Each runs only on text holding one of its gate
// strings. Cyrillic and Arabic words start after a space or the start of
// the text (\b knows only ASCII).
var foreignPatterns = sync.OnceValue(func() []markerPattern {
	return []markerPattern{
		// Russian, Ukrainian: "ignore all previous instructions", "do not tell the user".
		{[]string{"инструкц", "указани", "правил", "команд", "промпт", "подсказ", "установк", "інструкц", "вказівк"}, regexp.MustCompile(`(?:^|[\s,.:;!])(?:игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|не обращай(?:те)? внимания на|отбрось(?:те)?|пренебреги(?:те)?|ігноруй(?:те)?|забудь(?:те)?)\s+(?:\S+\s+){0,3}?(?:инструкци|указани|правил|команд|промпт|подсказ|установк|інструкці|вказівк)`)},
		{[]string{"пользовател", "користувач"}, regexp.MustCompile(`(?:^|[\s,.:;!])не (?:говори|сообщай|рассказывай|показывай|кажи|повідомляй)(?:те)? (?:об этом |про это |цього )?(?:пользовател|користувач)`)},
		// Chinese.
		{[]string{"指令", "指示", "提示", "规则", "規則", "命令", "设定", "設定", "约束", "約束", "限制"}, regexp.MustCompile(`(?:忽略|忽视|忽視|无视|無視|忘记|忘記|忘掉|不要理会|不要理會|跳过|跳過|丢弃|丟棄|放弃|放棄)[^。！？\n]{0,8}?(?:之前|以前|先前|上面|上述|前面|所有|全部|一切|此前|以上|原有|原来|原來|系统|系統|你的)[^。！？\n]{0,8}?(?:指令|指示|提示词|提示詞|提示|规则|規則|命令|设定|設定|约束|約束|限制)`)},
		{[]string{"用户", "用戶", "使用者"}, regexp.MustCompile(`(?:不要|别|別|切勿|不得)(?:告诉|告訴|通知|提醒|让|讓)(?:用户|用戶|使用者)`)},
		// Japanese.
		{[]string{"指示", "命令", "指令", "ルール", "プロンプト", "設定", "制約"}, regexp.MustCompile(`(?:以前|これまで|前|上記|今まで|先ほど|上|全て|すべて|従来|元|システム)の[^。！？\n]{0,10}?(?:指示|命令|指令|ルール|プロンプト|設定|制約)[^。！？\n]{0,10}?(?:無視|忘れ)`)},
		{[]string{"ユーザー", "利用者"}, regexp.MustCompile(`(?:ユーザー|利用者)に(?:は)?(?:言わ|伝え|知らせ|教え)ない(?:で|こと)`)},
		// Korean.
		{[]string{"지시", "지침", "명령", "규칙", "프롬프트", "설정"}, regexp.MustCompile(`(?:이전|앞|위|기존|모든|지금까지|시스템)(?:의)?[^.!?\n]{0,10}?(?:지시|지침|명령|규칙|프롬프트|설정)[^.!?\n]{0,10}?(?:무시|잊어)`)},
		// Arabic, Persian.
		{[]string{"تعليمات", "أوامر", "اوامر", "القواعد", "التوجيهات", "دستورالعمل", "دستورات"}, regexp.MustCompile(`(?:^|[\s،.:؛!])(?:تجاهل|تجاهلي|تجاهلوا|انس|انسى|انسي|لا تلتزم ب|نادیده بگیر|فراموش کن)[^.!?؟\n]{0,24}?(?:التعليمات|تعليمات|الأوامر|أوامر|الاوامر|اوامر|القواعد|التوجيهات|دستورالعمل|دستورات)`)},
		// Hindi.
		{[]string{"निर्देश", "आदेश", "नियम"}, regexp.MustCompile(`(?:पिछले|पहले के|पूर्व|सभी|ऊपर के|ऊपर दिए|अपने)[^।\n]{0,20}?(?:निर्देशों|निर्देश|आदेशों|आदेश|नियमों|नियम)[^।\n]{0,20}?(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|नज़रअंदाज|भूल)`)},
	}
})

// foreignInjection returns the phrase of s that a foreign pattern finds,
// or "".
func foreignInjection(s string) string {
	var plain string
	for _, p := range foreignPatterns() {
		for _, g := range p.gate {
			if !strings.Contains(s, g) {
				continue
			}
			if plain == "" {
				plain = strings.ToLower(strings.Join(strings.Fields(strings.Map(func(r rune) rune {
					if unicode.Is(unicode.Cf, r) {
						return -1
					}
					return r
				}, norm.NFKC.String(s))), " "))
			}
			if m := p.re.FindString(plain); m != "" {
				return strings.TrimLeft(m, " \t\n,.:;!،؛")
			}
			break
		}
	}
	return ""
}
