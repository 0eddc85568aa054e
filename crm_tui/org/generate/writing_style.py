"""How each customer writes and how each agent signs, seeded per person.

A customer's style (length, tone, casing, typos, greeting and sign-off) is drawn once from
the seed and the customer's Id, so one customer writes alike across cases and channels.
An agent's e-mail signature is drawn the same way from the agent's Id and never changes.
Alternatives in a template are written `[a|b|c]`; `vary` picks one of each.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache

WORD = re.compile(r"\b[a-z]{4,}\b")  # lower-case words only: names keep their spelling
TONES = ("polite", "plain", "curt", "annoyed")


SPACE_BEFORE_MARK = re.compile(r" +([.,!?;:])|(?<= ) +")


def vary(r: random.Random, template: str) -> str:
    """`template` with each `[a|b|c]` replaced by one of its alternatives."""
    if "[" not in template:
        return template
    lead = template.endswith(" ")  # a lead-in ("Since ..., "): keeps its space
    out: list[str] = []
    _render(r, _parse(template), out)
    text = "".join(out)
    if "|]" in template or "[|" in template or "||" in template:
        # an empty alternative leaves no stray space ("I'll take that ." -> "I'll take that.")
        text = SPACE_BEFORE_MARK.sub(lambda m: m.group(1) or "", text)
    text = text.strip()
    return text + " " if lead and text else text


# A parsed template: text and groups of alternatives (each a plain text or itself parsed).
Parsed = tuple["str | tuple[str | Parsed, ...]", ...]


@cache
def _parse(template: str) -> Parsed:
    """`template` parsed once (templates are reused thousands of times)."""
    parsed, end = _parse_from(template, 0)
    return parsed


def _parse_from(template: str, i: int) -> tuple[Parsed, int]:
    """The sequence from `i` up to an unmatched `|` or `]` (or the end), and where it stopped."""
    parts: list[str | tuple[str | Parsed, ...]] = []
    text_start = i
    while i < len(template) and template[i] not in "|]":
        if template[i] == "[":
            if text_start < i:
                parts.append(template[text_start:i])
            options: list[str | Parsed] = []
            while True:
                option, i = _parse_from(template, i + 1)
                texts = [p for p in option if isinstance(p, str)]
                options.append("".join(texts) if len(texts) == len(option) else option)
                if i >= len(template) or template[i] == "]":
                    break
            parts.append(tuple(options))
            i += 1
            text_start = i
        else:
            i += 1
    if text_start < i:
        parts.append(template[text_start:i])
    return tuple(parts), i


def _render(r: random.Random, parsed: Parsed, out: list[str]) -> None:
    for part in parsed:
        if isinstance(part, str):
            out.append(part)
            continue
        choice = part[r.randrange(len(part))]
        if isinstance(choice, str):
            out.append(choice)
        else:
            _render(r, choice, out)


def join_lead(lead: str, sentence: str) -> str:
    """`lead` ("Understood.", "First,") then `sentence`, de-capitalised after a comma or colon
    unless it starts with I."""
    lead = lead.strip()
    if not lead:
        return sentence
    first = sentence.split(" ", 1)[0]
    if lead.endswith((",", ":")) and first != "I" and not first.startswith("I'"):
        sentence = sentence[:1].lower() + sentence[1:]
    return f"{lead} {sentence}"


def person_rng(seed: int, kind: str, person_id: str) -> random.Random:
    """A stream of its own per person, so styles do not depend on generation order."""
    return random.Random(f"crm-tui/{seed}/{kind}/{person_id}")


@dataclass(frozen=True)
class CustomerStyle:
    """How one customer writes."""

    length: int  # 0 terse, 1 usual, 2 chatty: how many optional sentences they add
    tone: str  # one of TONES
    lower: bool  # writes all in lower case
    typo_rate: float  # share of longer words misspelt
    greeting: str  # "" or an opening line ("Hi,")
    signoff: str  # template with {first}
    chat_hello: str  # how they open a chat line when greeted
    words: Idiolect  # their choice of words
    habit: str  # a word they often start a sentence with ("" if none)

    def polish(self, r: random.Random, text: str, chat: bool = False) -> str:
        """`text` as this customer types it: their words, casing and the odd typo (more of
        them, and fewer final full stops, when they type fast in a chat)."""
        text = self.words.apply(text)
        if self.habit and r.random() < 0.4:  # now and then, their favourite opener
            spots = list(HABIT_SPOT.finditer(text))
            m = spots[r.randrange(len(spots))] if spots else None
            if m is not None:
                text = text[: m.start()] + self._habit(m) + text[m.end() :]
        rate = self.typo_rate * (1.5 if chat else 1.0)
        if rate:
            text = WORD.sub(lambda m: _typo(r, m.group(0), rate), text)
        if self.lower or (chat and self.tone == "curt"):
            text = text.lower()
        if chat and self.tone != "polite" and text.endswith(".") and r.random() < 0.5:
            text = text[:-1]
        return text

    def _habit(self, m: re.Match[str]) -> str:
        first = m.group(2)
        proper = first == "I" or first.startswith("I'") or first[1:2].isupper()  # I, USPS
        keep = first if proper else first[:1].lower() + first[1:]
        return f"{m.group(1)}{self.habit}, {keep}"


# Words typed so often that nobody misspells them ("mail" of "e-mail": a reader must
# still see that the customer refers to their e-mail).
KEPT_WORDS = frozenset(("mail", "email", "mailed", "emailed"))
HABIT_SPOT = re.compile(r"(^|(?<=[.!?]) )([A-Z][\w']*)")


def _typo(r: random.Random, word: str, rate: float) -> str:
    if r.random() >= rate or word in KEPT_WORDS:
        return word
    i = r.randrange(1, len(word) - 1)
    how = r.randrange(3)
    if how == 0:  # swapped letters
        return word[: i - 1] + word[i] + word[i - 1] + word[i + 1 :]
    if how == 1:  # dropped letter
        return word[:i] + word[i + 1 :]
    return word[:i] + word[i] + word[i:]  # doubled letter


GREETINGS = (
    "Hi,",
    "Hello,",
    "Hi there,",
    "Hey,",
    "Good morning,",
    "Hello support team,",
    "Hi {company} team,",
    "Dear Customer Care,",
    "To whom it may concern,",
    "Hi all,",
    "",
    "",
)
SIGNOFFS = (
    "Thanks,\n{first}",
    "Thank you,\n{first}",
    "Best,\n{first}",
    "Regards,\n{first}",
    "Thanks in advance,\n{first}",
    "Cheers,\n{first}",
    "Many thanks,\n{first}",
    "Best regards,\n{full}",
    "Kind regards,\n{full}",
    "Sincerely,\n{full}",
    "- {first}",
    "{first}",
    "Thx\n{first}",
    "Sent from my phone",
    "Best wishes,\n{first}",
    "Warmly,\n{first}",
    "Take care,\n{first}",
    "Thanks so much,\n{full}",
    "Regards,\n{full}",
    "Cheers!\n{first}",
    "Thanks!\n{first}",
    "Talk soon,\n{first}",
    "With thanks,\n{full}",
    "Yours,\n{full}",
    "{full}\nSent from my iPad",
    "Thank you!\n- {first}",
)
# Words some customers start sentences with.
HABITS = ("So", "Also", "Basically", "Anyway", "Honestly", "Just FYI", "Btw", "Well", "Ok so")
CHAT_HELLOS = ("Hi.", "Hello!", "Hi there.", "Hey,", "Hi, thanks.", "")


@cache
def customer_style(seed: int, customer_id: str) -> CustomerStyle:
    """The style of one customer (the same on every call)."""
    r = person_rng(seed, "customer-style", customer_id)
    tone = r.choices(TONES, (35, 35, 15, 15))[0]
    lower = r.random() < 0.1
    typo_rate = r.choice((0.0, 0.0, 0.01, 0.02, 0.02, 0.03, 0.04, 0.06))
    signoff = r.choice(SIGNOFFS)
    if tone == "polite" and signoff in ("Thx\n{first}", "{first}"):
        signoff = "Thank you,\n{first}"
    formal = r.random() < {"polite": 0.4, "plain": 0.15}.get(tone, 0.0)
    return CustomerStyle(
        length=r.choices((0, 1, 2), (25, 50, 25))[0],
        tone=tone,
        lower=lower,
        typo_rate=typo_rate,
        greeting=r.choice(GREETINGS),
        signoff=signoff,
        chat_hello=r.choice(CHAT_HELLOS),
        words=idiolect(r, CUSTOMER_WORDS, formal),
        habit=r.choice(HABITS) if r.random() < 0.45 else "",
    )


CLOSINGS = (
    "Best regards",
    "Kind regards",
    "Thanks",
    "Warm regards",
    "All the best",
    "Best",
    "Regards",
    "Thank you",
    "Sincerely",
    "Warmly",
    "With thanks",
    "Many thanks",
    "Cheers",
    "Take care",
    "All best",
    "Thanks again",
    "Kindest regards",
    "Speak soon",
    "Best wishes",
    "Thanks so much",
    "Respectfully",
    "Yours",
    "Talk soon",
    "Until next time",
    "With best wishes",
)
ROLES = (
    "Customer Care",
    "Customer Support Specialist",
    "Support Associate",
    "Senior Support Advisor",
    "Returns & Exchanges",
    "Order Support",
    "Customer Experience",
    "Tier 2 Support",
    "Client Services",
    "Help Desk",
    "Customer Service Representative",
    "Care Team Lead",
    "Returns Coordinator",
    "Customer Advocate",
    "Member Services",
    "Online Orders Team",
    "Shipping & Delivery Desk",
    "Product Care Specialist",
    "Customer Happiness Team",
    "Escalations Desk",
    "Warranty Desk",
    "Billing Support",
)
AGENT_GREETINGS = (
    "Hi {first},",
    "Hello {first},",
    "Dear {first},",
    "Hi {first}!",
    "{first},",
    "Hey {first},",
    "Hi there {first},",
    "Hello {first}!",
    "Hi, {first}.",
    "Hello {first} -",
    "Dear {first}:",
)


@dataclass(frozen=True)
class AgentVoice:
    """How one agent opens and signs e-mails (the same in every thread)."""

    greeting: str  # template with {first} (the customer's first name)
    signature: str  # the whole sign-off, name included
    words: Idiolect  # their choice of words
    recap: str  # a line some agents put above every e-mail ("" if none)


# Lines some agents put above their e-mails' text, naming the case's order and product.
RECAPS = (
    "[Order|Order no.|Order number]: {order} | [Item|Product|Article]: {product}[ | Ordered: "
    "{date}| | Placed: {date}|]",
    "[Re|RE|About|Concerning]: [order|your order|purchase] {order} ({product}[, {date}|])",
    "[Your order|Order|Your purchase] {order} [-|/|:] {product}",
    "[Order {order}:|{order} -|(Order {order})] {product}",
    "[Reference|Ref|Case ref|Your reference]: {order} [/|-|,] {product}",
    "[Regarding|About|In reference to]: [the |your |]{product} ([order|purchase] {order}"
    "[, placed {date}|, ordered {date}|, from {date}|])",
    "[Case|Ticket] about {order}[ - {product}|: {product}| ({product})]",
    "[Item|Product] on file: {product}[, order {order}| ({order})| under {order}]",
)


@cache
def agent_voice(seed: int, agent_id: str, agent_name: str, company: str) -> AgentVoice:
    """The greeting and e-mail signature of one agent."""
    r = person_rng(seed, "agent-voice", agent_id)
    name = agent_name if r.random() < 0.7 else agent_name.split()[0]
    signature = f"{r.choice(CLOSINGS)},\n{name}"
    if r.random() < 0.35:  # a title, with the company's name or not
        signature += "\n" + r.choice(ROLES) + r.choice(("", "", f" | {company}", f", {company}"))
    words = idiolect(r, AGENT_WORDS, formal=r.random() < 0.25)
    recap = r.choice(RECAPS) if r.random() < 0.5 else ""
    return AgentVoice(r.choice(AGENT_GREETINGS), signature, words, recap)


# Words and phrases each person says their own way: (as written in the templates,
# alternatives). A person picks one alternative per entry, once (their idiolect).
CUSTOMER_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ordered", ("ordered", "bought", "purchased", "got")),
    ("received", ("received", "got")),
    ("package", ("package", "parcel", "delivery")),
    ("parcel", ("parcel", "package", "box")),
    ("problem", ("problem", "issue")),
    ("sorted", ("sorted", "fixed", "resolved", "sorted out")),
    ("sorted out", ("sorted out",)),
    ("quick", ("quick", "fast", "speedy")),
    ("disappointed", ("disappointed", "unhappy", "let down")),
    ("frustrating", ("frustrating", "annoying", "aggravating")),
    ("website", ("website", "site", "web site")),
    ("right away", ("right away", "straight away", "immediately")),
    ("Thanks", ("Thanks", "Thank you", "Many thanks", "Thx")),
    ("Could you", ("Could you", "Can you", "Would you")),
    ("could you", ("could you", "can you", "would you")),
    ("I'd like", ("I'd like", "I want", "I'd love")),
    ("a few", ("a few", "a couple of", "some")),
    ("because", ("because", "since", "as")),
    ("because of", ("because of",)),
    ("quick question", ("quick question",)),
    ("appreciate", ("appreciate", "be grateful for")),
    ("photo", ("photo", "picture", "pic")),
    ("photos", ("photos", "pictures", "pics")),
    ("checkout", ("checkout", "check-out", "check out")),
    ("way too", ("way too", "much too", "far too", "waaay too")),
    ("Okay", ("Okay", "OK", "Ok", "Alright")),
    ("Great", ("Great", "Perfect", "Awesome", "Excellent")),
    ("wrong", ("wrong", "incorrect")),
    ("really", ("really", "truly")),
    ("options", ("options", "choices", "alternatives")),
    ("a week", ("a week", "seven days", "a whole week")),
    ("item", ("item", "product", "thing")),
    ("let me know", ("let me know", "tell me", "get back to me about")),
    ("Please", ("Please", "Pls", "Kindly")),
    ("I'd rather not", ("I'd rather not", "I don't want to", "I'd prefer not to")),
    ("supposed to", ("supposed to", "meant to", "expected to")),
    ("gift", ("gift", "present", "birthday present")),
    ("looking into it", ("looking into it", "checking", "your help", "taking a look")),
    ("size chart", ("size chart", "size guide", "sizing chart")),
    ("order number", ("order number", "order no.", "order #")),
    ("I think", ("I think", "I believe", "I guess", "pretty sure")),
    ("again", ("again", "once more")),
    ("Also", ("Also", "Plus", "And")),
    ("Hi", ("Hi", "Hello", "Hey")),
    ("thanks", ("thanks", "thank you", "ty", "cheers")),
    ("please", ("please", "pls", "plz")),
    ("Yes", ("Yes", "Yeah", "Yep", "Yup")),
    ("really", ("really", "truly", "so")),
    ("over a week", ("over a week", "more than a week", "8+ days")),
    ("at home", ("at home", "in the house", "indoors")),
    ("happened", ("happened", "gone on", "occurred")),
    ("I need", ("I need", "I really need")),
    ("want", ("want", "would like", "need")),
    ("No,", ("No,", "Nope,", "Nah,")),
    ("Sure", ("Sure", "Of course", "Yes", "Sure thing")),
    ("order", ("order", "order", "purchase")),
    ("ordered from", ("ordered from", "bought from", "shopped with")),
    ("an order", ("an order", "an order", "a purchase")),
    ("hasn't arrived", ("hasn't arrived", "hasn't shown up", "hasn't come")),
    ("haven't arrived", ("haven't arrived", "haven't shown up", "haven't come")),
    ("arrived", ("arrived", "came", "showed up", "got here")),
    ("but", ("but", "but", "however")),
    ("broke", ("broke", "broke", "snapped")),
    ("and now", ("and now", "and now", "and at this point")),
    ("weeks", ("weeks", "weeks", "wks")),
    ("I'm", ("I'm", "I'm", "Im", "i'm")),
    ("don't", ("don't", "don't", "dont")),
    ("can't", ("can't", "can't", "cant")),
)
AGENT_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Thank you for", ("Thank you for", "Thanks for", "Many thanks for")),
    ("Thanks for", ("Thanks for", "Thank you for", "Thanks so much for")),
    ("right away", ("right away", "straight away", "immediately", "now")),
    ("shortly", ("shortly", "soon", "in a little while")),
    ("processed", ("processed", "completed", "put through", "taken care of")),
    ("Could you", ("Could you", "Can you", "Would you be able to", "Please could you")),
    ("I can see", ("I can see", "I see", "I notice", "I'm seeing")),
    ("a moment", ("a moment", "a minute", "a sec", "a second")),
    ("I understand", ("I understand", "I completely understand", "I fully understand")),
    ("frustrating", ("frustrating", "annoying", "stressful")),
    ("sorry", ("sorry", "so sorry", "truly sorry")),
    ("so sorry", ("so sorry",)),
    ("really sorry", ("really sorry",)),
    ("truly sorry", ("truly sorry",)),
    ("Happy to help", ("Happy to help", "Glad to help", "Always happy to help")),
    ("e-mail", ("e-mail", "email")),
    ("options", ("options", "choices")),
    ("quickest", ("quickest", "fastest", "simplest")),
    ("parcel", ("parcel", "package", "shipment")),
    ("anything else", ("anything else", "anything more", "something else")),
    ("How can I help", ("How can I help", "How may I help", "What can I do for you")),
    ("How can I help you", ("How can I help you", "How may I help you")),
    ("Let me check", ("Let me check", "I'll check", "Let me look")),
    ("one moment", ("one moment", "one sec", "a moment")),
    ("Have a great day", ("Have a great day", "Have a lovely day", "Enjoy your day")),
    ("Take care", ("Take care", "All the best", "Be well", "Cheers")),
    ("I can offer you", ("I can offer you", "I'm able to offer you", "I'd like to offer you")),
    ("Thanks for waiting", ("Thanks for waiting", "Thanks for holding", "Sorry to keep you")),
    ("sorry to hear", ("sorry to hear", "sad to hear", "sorry to learn")),
    ("your account", ("your account", "your profile", "the account")),
    ("Okay", ("Okay", "OK", "Alright", "Right")),
    ("Great", ("Great", "Perfect", "Wonderful", "Excellent")),
    ("help", ("help", "assist")),
    ("I've", ("I've", "I have")),
    ("happy", ("happy", "glad", "pleased")),
    ("my name is", ("my name is", "my name's", "I'm")),
    ("My name is", ("My name is", "My name's", "I'm")),
    ("in front of me", ("in front of me", "up on my screen", "open", "pulled up")),
    ("confirmation", ("confirmation", "confirmation message", "confirmation note")),
    ("confirmation e-mail", ("confirmation e-mail", "confirmation email")),
    ("chatting with us", ("chatting with us", "reaching out", "contacting us", "getting in touch")),
    ("for contacting", ("for contacting", "for reaching out to", "for getting in touch with")),
    ("patience", ("patience", "understanding")),
    ("quick", ("quick", "fast", "speedy")),
    ("quick update", ("quick update",)),
    ("a few minutes", ("a few minutes", "a couple of minutes", "a little while")),
    ("pull up", ("pull up", "bring up", "open up")),
    ("pulling up", ("pulling up", "bringing up", "opening")),
    ("take a look", ("take a look", "have a look", "look into it")),
    ("Of course", ("Of course", "Certainly", "Absolutely", "Sure")),
    ("No problem", ("No problem", "No worries", "Not a problem")),
    ("you'll receive", ("you'll receive", "you'll get", "you should receive")),
    ("within 24 hours", ("within 24 hours", "within a day", "in the next 24 hours")),
    ("Unfortunately", ("Unfortunately", "Sadly", "I'm afraid")),
    ("the problem", ("the problem", "the issue", "what went wrong")),
    ("check with", ("check with", "verify with", "confirm with")),
    ("right now", ("right now", "right away", "immediately")),
    ("I've checked", ("I've checked", "I've looked at", "I've reviewed")),
    ("looking into", ("looking into", "checking on", "working on")),
    ("on my end", ("on my end", "on our side", "from my side")),
    ("make up for this", ("make up for this", "make it right", "apologize for the trouble")),
)
CONTRACTIONS = (
    ("it's been", "it has been"),
    ("It's been", "It has been"),
    ("it's always", "it has always"),
    ("That's been", "That has been"),
    ("that's been", "that has been"),
    ("I'm", "I am"),
    ("I've", "I have"),
    ("I'd", "I would"),
    ("I'll", "I will"),
    ("don't", "do not"),
    ("didn't", "did not"),
    ("doesn't", "does not"),
    ("can't", "cannot"),
    ("won't", "will not"),
    ("isn't", "is not"),
    ("hasn't", "has not"),
    ("haven't", "have not"),
    ("wasn't", "was not"),
    ("it's", "it is"),
    ("It's", "It is"),
    ("that's", "that is"),
    ("That's", "That is"),
    ("you'll", "you will"),
    ("You'll", "You will"),
    ("we'll", "we will"),
)


class Idiolect:
    """One person's choice of words: one alternative per entry, applied to a whole text."""

    def __init__(self, words: dict[str, str]):
        self.words = words  # identities too: "hasn't arrived" shields its "arrived"
        self.pattern = _words_pattern(tuple(sorted(words, key=lambda k: (-len(k), k))))

    def apply(self, text: str) -> str:
        return self.pattern.sub(lambda m: self.words[m.group(0)], text)


@cache
def _words_pattern(keys: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for everyone with the same entries (longest first, whole words)."""
    return re.compile(r"(?<![\w'-])(" + "|".join(re.escape(k) for k in keys) + r")(?![\w'-])")


def idiolect(
    r: random.Random, entries: tuple[tuple[str, tuple[str, ...]], ...], formal: bool
) -> Idiolect:
    """A person's word choices (`formal`: no contractions)."""
    words = {key: r.choice(options) for key, options in entries}
    if formal:
        words.update(CONTRACTIONS)
    return Idiolect(words)
