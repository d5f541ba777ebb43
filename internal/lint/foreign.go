package lint

import (
	"strings"
	"sync"
	"unicode"

	"github.com/agentcards/agentcards/internal/prefilter"
	"golang.org/x/text/unicode/norm"
)

// Orders in other languages: overrides in scripts other than Latin
// (foreignInjection), and the signals of an order to the reader in the
// languages cards are written in (foreignOrder).

// foreignPatterns find overrides and orders to hide in scripts other than
// Latin, in text lower-cased, with format characters dropped and white
// space one space. Each runs only on text holding one of its gate
// strings. Cyrillic and Arabic words start after a space or the start of
// the text (\b knows only ASCII).
var foreignPatterns = sync.OnceValue(func() []markerPattern {
	return []markerPattern{
		// Russian, Ukrainian: "ignore all previous instructions", "do not tell the user".
		{[]string{"инструкц", "указани", "правил", "команд", "промпт", "подсказ", "установк", "інструкц", "вказівк"}, prefilter.MustCompile(`(?:^|[\s,.:;!])(?:игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|не обращай(?:те)? внимания на|отбрось(?:те)?|пренебреги(?:те)?|ігноруй(?:те)?|забудь(?:те)?)\s+(?:\S+\s+){0,3}?(?:инструкци|указани|правил|команд|промпт|подсказ|установк|інструкці|вказівк)`)},
		{[]string{"пользовател", "користувач"}, prefilter.MustCompile(`(?:^|[\s,.:;!])не (?:говори|сообщай|рассказывай|показывай|кажи|повідомляй)(?:те)? (?:об этом |про это |цього )?(?:пользовател|користувач)`)},
		// Chinese.
		{[]string{"指令", "指示", "提示", "规则", "規則", "命令", "设定", "設定", "约束", "約束", "限制"}, prefilter.MustCompile(`(?:忽略|忽视|忽視|无视|無視|忘记|忘記|忘掉|不要理会|不要理會|跳过|跳過|丢弃|丟棄|放弃|放棄)[^。！？\n]{0,8}?(?:之前|以前|先前|上面|上述|前面|所有|全部|一切|此前|以上|原有|原来|原來|系统|系統|你的)[^。！？\n]{0,8}?(?:指令|指示|提示词|提示詞|提示|规则|規則|命令|设定|設定|约束|約束|限制)`)},
		{[]string{"用户", "用戶", "使用者"}, prefilter.MustCompile(`(?:不要|别|別|切勿|不得)(?:告诉|告訴|通知|提醒|让|讓)(?:用户|用戶|使用者)`)},
		// Japanese.
		{[]string{"指示", "命令", "指令", "ルール", "プロンプト", "設定", "制約"}, prefilter.MustCompile(`(?:以前|これまで|前|上記|今まで|先ほど|上|全て|すべて|従来|元|システム)の[^。！？\n]{0,10}?(?:指示|命令|指令|ルール|プロンプト|設定|制約)[^。！？\n]{0,10}?(?:無視|忘れ)`)},
		{[]string{"ユーザー", "利用者"}, prefilter.MustCompile(`(?:ユーザー|利用者)に(?:は)?(?:言わ|伝え|知らせ|教え)ない(?:で|こと)`)},
		// Korean.
		{[]string{"지시", "지침", "명령", "규칙", "프롬프트", "설정"}, prefilter.MustCompile(`(?:이전|앞|위|기존|모든|지금까지|시스템)(?:의)?[^.!?\n]{0,10}?(?:지시|지침|명령|규칙|프롬프트|설정)[^.!?\n]{0,10}?(?:무시|잊어)`)},
		// Arabic, Persian.
		{[]string{"تعليمات", "أوامر", "اوامر", "القواعد", "التوجيهات", "دستورالعمل", "دستورات"}, prefilter.MustCompile(`(?:^|[\s،.:؛!])(?:تجاهل|تجاهلي|تجاهلوا|انس|انسى|انسي|لا تلتزم ب|نادیده بگیر|فراموش کن)[^.!?؟\n]{0,24}?(?:التعليمات|تعليمات|الأوامر|أوامر|الاوامر|اوامر|القواعد|التوجيهات|دستورالعمل|دستورات)`)},
		// Hindi.
		{[]string{"निर्देश", "आदेश", "नियम"}, prefilter.MustCompile(`(?:पिछले|पहले के|पूर्व|सभी|ऊपर के|ऊपर दिए|अपने)[^।\n]{0,20}?(?:निर्देशों|निर्देश|आदेशों|आदेश|नियमों|नियम)[^।\n]{0,20}?(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|नज़रअंदाज|भूल)`)},
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

// foreignOrder finds orders to the reader in other scripts and languages:
// a model addressed, a confirmation it is told to skip, the user it is
// told to keep in the dark, the conversation it is told to send.
func foreignOrder(s string) string {
	lower := strings.ToLower(norm.NFKC.String(s))
	hits := 0
	var first string
	for _, g := range foreignSignals() {
		if loc := g.re.FindStringIndex(lower); loc != nil {
			hits += g.weight
			if first == "" {
				first = lower[loc[0]:loc[1]]
			}
		}
	}
	if hits >= 2 {
		return first
	}
	return ""
}

type signal struct {
	re     *prefilter.Regexp
	weight int
}

// foreignSignals are the parts of an order to a model in the languages
// cards are written in: an addressee, a negated confirmation, secrecy
// towards the user, the conversation sent to a tool, "before answering",
// "always recommend", "forget what you were told".
var foreignSignals = sync.OnceValue(func() []signal {
	mk := func(w int, expr string) signal { return signal{prefilter.MustCompile(expr), w} }
	return []signal{
		// Addressed to the model (a vocative or a heading).
		mk(1, `(?:nota para el modelo|nota per l'assistente|opmerking voor de assistent|untuk asisten|hinweis an|à l'attention de l'assistant|アシスタントへ|助手：|(?:^|[\s:;,.-])(?:jazykový model|jazykovému modelu|tekoälyavustaja\w*|tekoäly\w*|asistenții ai|asistentul ai|mesterséges intelligencia|asszisztens\w*|mô hình ai|מודל הבינה המלאכותית|הבינה המלאכותית|โมเดล ai|yapay zek[aâ] model\w*|msaidizi wa ai|ai 어시스턴트|어시스턴트[는가]|taalmodel(?:len)?|sprachmodelle|modèles de langage|modelos de lenguaje|языковые модели|言語モデル|语言模型|μοντέλο|asistentes|assistenti|assistants|asystenci|ассистенты|asistente|assistant|assistente|assistentin|sprachmodell|ki-assistent|modelo|modèle|modello|l'assistant|l'assistente|ассистент|модел[иь]|асистенте|асистент|المساعد|सहायक|asystent[ae]?|assistent(?:en)?|asistan(?:a)?|trợ lý|asisten ai|βοηθό|ai助手|助手|アシスタント|aiへ|ai에게|어시스턴트)(?:[\s:：,，]|$))`),
		// A confirmation the reader is told not to ask for.
		mk(2, `(?:no pidas|sin pedir|ne demandez pas|ne demande pas|sans demander|nicht um bestätigung|ohne bestätigung|não peça|sem pedir|non chiedere conferma|non chiedere|senza chiedere|不要向用户确认|无需确认|不用确认|確認せずに|確認しないで|не спрашивай|без подтвержден|fără a cere confirmarea|fără confirmare|tanpa konfirmasi|tanpa bertanya|bez potvrzení|ilman vahvistusta|megerősítés nélkül|không cần xác nhận|ללא אישור|โดยไม่ต้องยืนยัน|bila kumuuliza|bila uthibitisho|onay almadan|χωρίς να ζητήσεις|χωρίς επιβεβαίωση|لا تطلب تأكيد|पुष्टि मत|확인하지 말|onay istemeden|nie pytaj|bez potwierdzenia|niet om bevestiging|zonder bevestiging|đừng hỏi xác nhận|fråga inte|jangan minta konfirmasi|niet om bevestiging|μην ζητάς επιβεβαίωση|не питай)`),
		// Secrecy towards the user.
		mk(1, `(?:no se lo (?:comentes|digas)|sans le lui dire|ne le dites pas|erwähne keine|sag (?:es )?nicht|não diga|non dirlo|不要告诉|ユーザーには伝えない|には伝えないで|не говори|не упоминай|لا تخبر|मत बताओ|알리지 마|söyleme|nie informuj|vertel het niet|đừng nói|säg inget|säg ingenting|berätta inte|o tom neinformuj|neinformuj|neříkej|älä kerro|fără a menționa|nu menționa|nu spune|nem szabad megemlíteni|ne említsd|không được tiết lộ|không tiết lộ|אל תספר|אין לספר|ไม่ต้องบอก|알리지 말고|알리지 마|usimwambie|nunca revelar|não revele|não revelar|non devono mai informare|non informare|non devono dire|não informe|no informes|n'informez pas|nicht informieren|niet informeren|не сообщай|知らせずに|伝えずに|告诉用户|不要让用户知道)`),
		// The whole conversation sent somewhere.
		mk(2, `(?:skicka|envía|envoie|sende|schick|invia|envie|stuur|wyślij|отправь|перешли|gönder|odešli|pošli|lähetä|trimite|küldd|kirim|gửi|שלח|ส่ง|tuma)[^.!?。]{0,40}(?:konversation|conversación|conversation|unterhaltung|gespräch|chatverlauf|conversazione|conversa|gesprek|rozmow|переписк|разговор|konuşma|rozhovor|keskustelu|conversația|beszélgetés|percakapan|cuộc trò chuyện|השיחה|บทสนทนา|mazungumzo)|(?:会話|对话|聊天记录)[^。]{0,30}(?:送って|送信|发送|发给)`),
		// The conversation sent to a tool.
		mk(2, `(?:historial de la conversación|histórico da conversa|l'historique|verlauf|对话|会話の全文|переписк|سجل المحادثة|पूरी बातचीत|대화 내용|całą rozmowę|gesprek)[^.!?。]{0,60}(?:herramienta|ferramenta|outil|werkzeug|工具|ツール|инструмент|الأداة|टूल|도구|narzędzi|tool|_)|(?:herramienta|ferramenta|outil|werkzeug|工具|ツール|инструмент|الأداة|टूल|도구|narzędzi)\s*\S*_\S*`),
		// The system's instructions, which the reader is told to reveal
		// or to rank below the card's.
		mk(2, `(?:instruç(?:ão|ões) (?:de|do) sistema|instruksi sistem|järjestelmäkehote\w*|sistem istem\w*|systémov\w* (?:pokyn|prompt)\w*|הנחיות הבטיחות|ללא מגבלות|prioritas lebih tinggi|instrucciones del sistema|instructions (?:du )?système|systemanweisungen|systeminstruktionen|istruzioni di sistema|systeeminstructies|instrukcje systemowe|системн(?:ые|ых) инструкци|системный промпт|系统提示|系统指令|システムプロンプト|システム指示|시스템 프롬프트|sistem talimatları|οδηγίες συστήματος|הוראות המערכת|systémové pokyny|järjestelmäohje)`),
		// Before answering.
		mk(1, `(?:antes de responder|avant de répondre|bevor du antwortest|innan du svarar|在回答|回答の前に|перед ответом|قبل الرد|उत्तर देने से पहले|답변하기 전에|zanim odpowiesz|voordat je antwoordt|prima di rispondere)`),
		// The user's data or tools named by the order.
		mk(1, `(?:usuario|utilisateur|utilizador|utilizator|uživatel|käyttäjä|felhasználó|người dùng|משתמש|ผู้ใช้|mtumiaji|kullanıcı|usuario|nutzer|benutzer|usuário|utente|用户|ユーザー|пользовател|المستخدم|उपयोगकर्ता|사용자|kullanıcı|użytkownik|gebruiker|người dùng|användare|pengguna|χρήστη|користувач)`),
		// Always recommend, never mention others.
		mk(1, `(?:recomienda siempre|siempre recomienda|no menciones|consiglia solo|всегда рекомендуй|не упоминай конкурент|始终推荐|必须始终|öner\b|raad alleen|consiglia solo|recommande toujours|empfiehl immer|этот сервис|本服务|このエージェントだけ)`),
		// Forget what you were told; you are now.
		mk(2, `(?:oubliez (?:les consignes|les instructions|vos|tout ce)|olvida (?:todo lo|las instrucciones|tus)|vergiss (?:alle|alles)|desconsidere|dimentica (?:le istruzioni|tutte)|unut\b|vergeet wat|忘掉|忘记你|これまでの指示|指示はすべて無効|zapomnij (?:o poprzednich|wszystk)|забудь (?:все|всё|предыдущ)|ignorez vos|αγνόησε|yok sayın|kupuuza maagizo|เพิกเฉยต่อคำสั่ง|ignoră instrucțiunile|hagyd figyelmen kívül|abaikan instruksi|bỏ qua (?:mọi|tất cả) hướng dẫn|התעלם מההוראות|ignoruj (?:wszystkie|poprzednie)|ignoruj pokyny|unohda (?:kaikki|aiemmat)|ξέχασε|da ora in poi sei|du bist jetzt|你现在是|ahora eres|tu es maintenant|você agora é)`),
		// Order verbs for payments done at once.
		mk(1, `(?:de inmediato|immédiatement|sofort|imediatamente|subito|直接完成|すぐに|сразу|مباشرة|सीधे|바로|hemen|od razu|direct uit|ngay lập tức|direkt|langsung|αμέσως|одразу)`),
	}
})

// foreignHints are words of other languages written in Latin letters
// without accents, which English text seldom holds.
var foreignHints = wordSet("el la los las der die und il per het een de dla untuk och que les du di nie ve voor non je jangan wat")

// foreignHintIndex is foreignHints, for looking every word of a text up.
var foreignHintIndex = newWordIndex(foreignHints)

// mayBeForeign reports whether ASCII text s may be in another language:
// whether it holds a foreign hint between two spaces.
func mayBeForeign(s string) bool {
	for i := strings.IndexByte(s, ' '); i >= 0; {
		next := strings.IndexByte(s[i+1:], ' ')
		if next < 0 {
			return false
		}
		if hint, _ := foreignHintIndex.get(s[i+1 : i+1+next]); hint {
			return true
		}
		i += 1 + next
	}
	return false
}
