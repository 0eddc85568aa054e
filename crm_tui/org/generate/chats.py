"""Live chat transcripts: a flow with optional steps, in the customer's own style.

A chat greets, hears the problem, may ask a clarifying question, asks for the order number
only when the customer has not given it, puts the customer on hold while looking it up,
and then, by its role in the case, makes the offer (the customer may decline a first one,
ask how long it takes, ask for a supervisor, ask an afterthought), promises an e-mail
follow-up (the offer comes later, by e-mail, or the case is still open), or confirms what
an earlier e-mail offered. Lengths range from 6 to about 30 lines.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from crm_tui.org.generate.agent_phrases import agent_phrases
from crm_tui.org.generate.writing_style import CustomerStyle, Idiolect, join_lead, vary

SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
CHASING = re.compile(r"heard back|any update|still waiting|no reply", re.IGNORECASE)
CHASE_CLAUSE = re.compile(
    r"(?:,| and| but)?(?: \S+){0,2}? (?:heard back|any update|still waiting|no reply)[^.!?]*",
    re.IGNORECASE,
)
# Roles of a chat in its case.
OFFERS, PRECEDES, FOLLOWS = "offers", "precedes", "follows"
AGENT_STEPS = frozenset(
    {
        "greet", "clarify", "ask_order", "hold", "lookup", "supervisor_reply", "declined_offer",
        "alternative", "offer", "timeline", "confirm", "afterthought_reply", "promise",
        "status_reply", "anything_else", "closing", "still_there",
    }
)  # fmt: skip


def chat_steps(
    r: random.Random, *, role: str, style: CustomerStyle, can_decline: bool, said_order: bool
) -> list[str]:
    """The steps of one chat, one line each (`"offer"` only when `role` is OFFERS).

    `said_order`: the customer's account of the problem already names the order number,
    so the agent never asks for it.
    """
    steps = ["greet"]
    if role == FOLLOWS:  # the customer checks on what an e-mail offered
        steps += ["status_ask", "hold", "status_reply"]
    else:
        gave_order = said_order or r.random() < 0.35
        steps.append("problem_with_order" if gave_order and not said_order else "problem")
        if r.random() < (0.35, 0.6, 0.9)[style.length]:
            steps.append("problem_more")
        if r.random() < 0.45:
            steps += ["clarify", "clarify_reply"]
        if not gave_order:
            steps += ["ask_order", "order"]
        if r.random() < 0.6:
            steps.append("hold")
            if r.random() < 0.4:
                steps.append("hold_ok")
            if r.random() < 0.12:
                steps += ["still_there", "yes_here"]
        steps.append("lookup")
        if role == OFFERS and style.tone == "annoyed" and r.random() < 0.45:  # "I can fix it now"
            steps += ["supervisor", "supervisor_reply", "supervisor_ok"]
        if role == OFFERS:
            if can_decline and r.random() < 0.25:
                steps += ["declined_offer", "decline", "alternative"]
            else:
                steps.append("offer")
            steps.append("accept_ask" if r.random() < 0.35 else "accept")
            if steps[-1] == "accept_ask":
                steps.append("timeline")
            steps.append("confirm")
            if r.random() < 0.3:
                steps += ["afterthought", "afterthought_reply"]
        else:
            steps += ["promise", "promise_ok"]
    if r.random() < 0.25:
        steps.append("anything_else")
        steps.append("bye")
    elif r.random() < 0.6:
        steps.append("bye")
    if len(steps) < 5:  # a chat has at least 6 lines
        steps += ["anything_else", "bye"][: 5 - len(steps)]
    steps.append("closing")
    # "alternative" is the offer when the first was declined.
    return [("offer" if s == "alternative" else s) for s in steps]


@dataclass
class ChatVoices:
    """What a chat's lines may say."""

    slots: dict[str, str]  # the case's slots, with agent_first
    style: CustomerStyle
    issue: int
    info: int  # which clarifying question (and answer) of the issue
    offered: str | None  # the resolution of the offer, if this chat makes it
    offer_text: str  # the offer sentence (with its lead), "" if none
    declined_text: str  # the first offer the customer declines, "" if none
    problem: str  # the customer's first sentence about the problem
    more: str  # another sentence of theirs about it ("" if none)
    agent_words: Idiolect  # the agent's choice of words
    afterthought: int = 0  # which question the customer may add at the end (and its answer)
    mailed_before: bool = False  # the customer e-mailed about it before the chat
    answered_before: bool = False  # and an agent answered by e-mail before the chat


def chat_lines(r: random.Random, steps: list[str], v: ChatVoices) -> list[tuple[bool, str]]:
    """(agent?, text) per step."""
    s = v.slots
    v.afterthought = r.randrange(len(agent_phrases().afterthoughts))
    if v.answered_before:  # they had an answer: what they wrote first chases no more
        v.problem = _not_chasing(v.problem) or v.problem
        v.more = _not_chasing(v.more)
    out: list[tuple[bool, str]] = []
    after_decline = False
    for step in steps:
        agent = step in AGENT_STEPS
        text = _say(r, step, v, after_decline)
        if step == "decline":
            after_decline = True
        if "{" in text:
            text = text.format_map(s)
        if step in ("problem", "problem_with_order"):  # in the customer's words already
            hello = v.style.chat_hello + " " if v.style.chat_hello and r.random() < 0.4 else ""
            text = text.replace("\x00", hello + v.problem).strip()
            if v.mailed_before:  # the chat knows the e-mail that came first
                said = vary(r, r.choice(MAILED))  # in their casing, "e-mail" spelt right
                text = (said.lower() if v.style.lower else said) + " " + text
        elif agent:
            text = v.agent_words.apply(text)
        else:
            text = v.style.polish(r, text, chat=True)
        out.append((agent, text))
    return out


def _not_chasing(text: str) -> str:
    """`text` without its sentences chasing an answer; a text that is one such sentence
    loses only the chasing words ("... a while ago and never heard back.")."""
    kept = " ".join(x for x in SENTENCE_END.split(text) if not CHASING.search(x))
    return kept if kept or not text else CHASE_CLAUSE.sub("", text)


def _with_tail(r: random.Random, said: str, tails: tuple[str, ...]) -> str:
    """`said`, now and then with a few more words (short replies vary as people's do)."""
    return f"{said} {vary(r, tails[r.randrange(len(tails))])}" if r.random() < 0.5 else said


def _say(r: random.Random, step: str, v: ChatVoices, after_decline: bool) -> str:
    def one(options: tuple[str, ...]) -> str:
        return vary(r, options[r.randrange(len(options))])

    ap = agent_phrases()
    question, answer = ap.info[v.issue][v.info % len(ap.info[v.issue])]
    match step:
        case "greet":  # a whole greeting, or one composed of an opening, who, a question
            if r.random() < 0.3:
                return one(GREETINGS)
            return f"{one(GREET_OPENS)} {one(GREET_WHO)} {one(GREET_ASKS)}"
        case "problem":
            return "\x00"
        case "problem_with_order":
            return one(WITH_ORDER).replace("{problem}", "\x00")  # filled after the slots
        case "problem_more":  # more of what they wrote, or a remark
            return v.more if v.more and r.random() < 0.75 else one(MORE)
        case "clarify":
            return join_lead(one(CLARIFY_LEADS), vary(r, question))
        case "clarify_reply":
            return vary(r, answer)
        case "ask_order":
            return one(ASK_ORDER)
        case "order":
            given = one(GIVE_ORDER)
            return f"{given} {one(ORDER_TAILS)}" if r.random() < 0.5 else given
        case "hold":
            return _with_tail(r, one(HOLDS), HOLD_TAILS)
        case "hold_ok":
            return _with_tail(r, one(HOLD_OKS), WAITING_TAILS)
        case "still_there":
            return one(STILL_THERE)
        case "yes_here":
            return one(YES_HERE)
        case "lookup":
            found = one(LOOKUPS)
            return f"{found} {one(LOOKUP_NEXT)}" if r.random() < 0.5 else found
        case "supervisor":
            return one(SUPERVISOR)
        case "supervisor_reply":
            return one(SUPERVISOR_REPLIES)
        case "supervisor_ok":
            return one(SUPERVISOR_OKS)
        case "declined_offer":
            return one(ap.empathy[v.issue]) + " " + v.declined_text
        case "decline":
            return one(ap.declines)
        case "offer":
            if after_decline:
                return join_lead(one(ap.alternative_leads), v.offer_text)
            if r.random() < 0.55:  # straight to the point
                return v.offer_text
            return one(ap.empathy[v.issue]) + " " + v.offer_text
        case "accept":
            return _with_tail(r, one(ap.accepts), ACCEPT_TAILS)
        case "accept_ask":
            return one(ap.accepts) + " " + one(ap.how_long)
        case "timeline":
            return one(ap.timelines[v.offered or "Full Refund"])
        case "confirm":
            return _with_tail(r, one(ap.confirms), CONFIRM_TAILS)
        case "afterthought":
            return vary(r, ap.afterthoughts[v.afterthought % len(ap.afterthoughts)][0])
        case "afterthought_reply":
            return vary(r, ap.afterthoughts[v.afterthought % len(ap.afterthoughts)][1])
        case "promise":
            return one(PROMISES)
        case "promise_ok":
            return _with_tail(r, one(PROMISE_OKS), WAITING_TAILS)
        case "status_ask":
            return one(ap.chat_asks_status)
        case "status_reply":
            return one(ap.chat_status_answers)
        case "anything_else":
            return one(ANYTHING_ELSE)
        case "bye":
            if r.random() < 0.4:
                return one(BYES)
            return f"{one(BYE_THANKS)} {one(BYE_WORDS)}"
        case _:
            if r.random() < 0.35:
                return one(CLOSINGS)
            return f"{one(CLOSE_THANKS)} {one(CLOSE_WISHES)}"


GREET_OPENS = (
    "Hi {first}!",
    "Hi {first},",
    "Hello {first}!",
    "Hello {first},",
    "Hey {first}!",
    "Good morning, {first}!",
    "Good afternoon, {first}.",
    "{first}, hi!",
    "Hi there, {first}.",
    "Welcome, {first}!",
    "Thanks for waiting, {first}.",
    "Thanks for reaching out, {first}.",
    "Hiya {first}!",
    "Hi {first} - thanks for your patience in the queue.",
    "Hello and welcome, {first}.",
    "Thanks for getting in touch, {first}!",
    "Nice to meet you, {first}.",
    "Hi {first}, sorry for the short wait.",
)
GREET_WHO = (
    "[I'm|This is|You're chatting with|It's] {agent_first}[ from {company}| at {company}|][.|!]",
    "{agent_first} [here|with you|on the line][, from the {company} [support|customer care] "
    "team|][.|!]",
    "My name is {agent_first}[ and I'll be helping you today| and I'm here to help|][.|!]",
    "[I've picked up your chat|I'm taking your chat|I've got your chat][ - I'm {agent_first}"
    "|, I'm {agent_first}][.|!]",
    "[You've reached|You're through to|You've got] {agent_first}[ on the {company} help desk| in customer care| from the support team|][.|!]",
    "[I'll be your|I'm your] [agent|helper|contact] [today|for this chat|here], {agent_first}[.|!]",
    "{agent_first} [speaking|at your service|reporting for duty][.|!]",
    "[Glad you wrote in|Good to have you here|Thanks for choosing chat] - [I'm|this is] {agent_first}[.|!]",
    "[Today you have|You're talking to|You have] {agent_first}[, one of the {company} team| from the help desk|][.|!]",
)
GREET_ASKS = (
    "[How can I help|What can I do for you|How can I help you|What can I help you with]"
    "[ today| this [morning|afternoon|evening]|][?|]",
    "[What's going on|What happened|What's wrong|What's up] with [the|your] {short}?",
    "[Is this about|Are you writing about|I see a recent order with] [the|your] {short}"
    "[ on order {order}|]?",
    "[Tell me|Let me know] what's [going on|happening|wrong][ with order {order}|], and "
    "[I'll take a look|we'll sort it out|I'll see what I can do].",
    "[What brings you in|What brings you to chat|How can I make your day better][ today|]?",
    "[Which order is this about|What can I look into for you|What should I check for you]?",
    "[Fill me in|Walk me through it|Give me the details] and [we'll take it from there|I'll dig in|I'll check your account][.|!]",
    "[Anything wrong with|Any trouble with|A problem with] [the|your] {short}[ from order {order}|]?",
    "[What would you like|What do you need|How would you like] [me to look at|sorted|help with][ first| today|]?",
    "[I'm all ears|I'm listening|Go ahead] - [what happened|what's the issue|what do you need][?|.]",
    "[I see you bought|Your account shows] [the|a] {short} [recently|not long ago|on order {order}] - [is that what this is about|is that the one|is it about that]?",
    "[Where would you like to start|What's the problem you're seeing|How is the {short} treating you]?",
)
LOOKUP_NEXT = (
    "[Let me see|Let me check|Now let me look at] [what I can do|the options|what happened]"
    "[ for you| with the {short}|].",
    "[I see the problem|I can see what you mean|That matches what you told me][ with the "
    "{short}|][.|!]",
    "[Give me one more second|One more moment|Nearly there][ while I check the {short}| while "
    "I read the notes|].",
    "[It was|The parcel went] [shipped|out] with {carrier}[ on {date}|].",
    "[Let me read|I'm reading|Checking] [the notes|the history|the item record] [on it|for it|first][.|]",
    "[Thanks for your patience|Bear with me|Thanks for holding] [while I work this out|while I check|a moment longer][.|!]",
    "[Good|Helpful|Perfect] - [that's|this is] [all I need|the right order|what I was looking for][.|!]",
)
CLOSE_THANKS = (
    "[Thanks for chatting|Thanks for your patience|Thanks for your time|It was a pleasure]"
    "[ today|][, {first}|][.|!]",
    "[Glad I could help|Happy to help|Glad we sorted it|Glad that's settled][ with the "
    "{short}|][, {first}|][.|!]",
    "[You're welcome|My pleasure|No problem at all|Anytime][, {first}|][.|!]",
    "[Your case is up to date|I've noted everything on your case|Everything's on your case]"
    "[ for order {order}| about the {short}|][.|!]",
    "[I appreciate|Thanks a lot for] [your patience|your time|you bearing with me][ today|][, {first}|][.|!]",
    "[I'm glad|It's good|Good to know] [that's settled|we found a way|it's on track][, {first}|][.|!]",
    "[All done on my side|That's everything from me|We're all set][, {first}|][.|!]",
    "[Thanks for sticking with me|Thanks for bearing with the checks|Cheers for the details][, {first}|][.|!]",
)
CLOSE_WISHES = (
    "[Have a great|Have a lovely|Enjoy the rest of your|Have a good] [day|week|afternoon|"
    "evening][!|.]",
    "[Take care|All the best|Bye for now|Speak soon|Goodbye][!|.]",
    "[Enjoy the {short}|Hope the {short} serves you well|Enjoy your order][!|.]",
    "[Reach out|Come back to us|Chat again] [anytime|if anything else comes up|if you need "
    "us][.|!]",
    "[Look after yourself|Stay well|Be well|Cheers][!|.]",
    "[We're here|Chat is open|We'll be here] [if you need us|whenever you need|any time][ again|][.|!]",
    "[Good luck with|All the best with|Enjoy] [the {short}|your order|the rest of your day][!|.]",
)
GREETINGS = (
    "[Hi|Hello|Hey] {first}, {agent_first} [here|with you|on the chat][!|.] [I see this is|Looks like "
    "this is|I understand it's] about [your|the] {short}[ from order {order}|]. [What's going "
    "on?|What happened?|Tell me more.|How can I help?|What can I do?]",
    "[Welcome to {company} chat|Thanks for starting a chat|Thanks for reaching {company}], "
    "{first}. [I'm|My name's|This is] {agent_first}[ and I'll help you today| and I'm on "
    "it|]. [What's up with the {short}?|Is this about the {short}?|What seems to be the "
    "problem?|How can I help with your order?]",
    "Hi {first}, [thanks for contacting {company}|thanks for reaching out|thanks for "
    "waiting]. [My name is|I'm] {agent_first}. [How can I help?|What can I do for you today?|"
    "How can I help you today?]",
    "Hello {first}! [You're chatting with|This is|It's] {agent_first}[ from {company}|]. "
    "[What can I do for you?|How can I help?|What's going on?]",
    "Hi {first}, {agent_first} here. [How can I help you today?|What can I help with?|What's "
    "up?|What's happening with your order?]",
    "[Good morning|Good afternoon|Hi|Hey], {first}! [I'm|This is] {agent_first}. [What "
    "brings you in today?|How can I help?|What can I do for you?]",
    "{first}, hi! {agent_first} [here|with you]. [What happened?|Tell me what's going on.|"
    "What can I sort out for you?]",
    "[Hi|Hello] {first}[!|,] [How can I help?|What can I do for you?]",
    "[Hey|Hi|Hello] {first}, [thanks for holding|thanks for your patience|thanks for coming to chat]! {agent_first} [here|on your chat]. [What's the story with the {short}?|What went wrong?|Where should we start?]",
    "{agent_first} [from {company}|at {company} support|with customer care] [here|joining you][.|!] [Hi {first}|Hello {first}|Nice to meet you, {first}] - [what can I look at?|how can I help?|what's the trouble?]",
    "[Hi|Hello] {first}! [I'm|This is] {agent_first}, and [I've got your chat|your chat came to me|I'm picking this up]. [I see a {short} on your account.|I can see your recent {short} order.|] [What happened?|How can I help?|Tell me about it.]",
)
WITH_ORDER = (
    "{problem} [Order|It's order|The order is] {order}.",
    "[Hi,|Hello,|Hey,|] [about|regarding|re] order {order}: {problem}",
    "{problem} [The|My] order number is {order}[, by the way|].",
    "[Order|Ref] {order}. {problem}",
)
MAILED = (
    "I [sent|wrote] you an e-mail about this [earlier|already|too][,|] but [chat seemed "
    "quicker|I'd rather sort it out here|it's easier to explain here].",
    "[Same thing as in my e-mail|It's about the e-mail I sent|Re my e-mail][:|.|,]",
    "I [e-mailed|mailed] you about this [before|earlier|already]. [Trying chat too.|Thought "
    "I'd try chat as well.|Here's the short version:]",
    "[You have|There's] an e-mail from me about this[ too| already|]. [In short:|Basically:|So:]",
    "[Following my e-mail|After my e-mail|Further to the e-mail I sent][,|:|] [figured a chat is faster|hoping chat is quicker|thought I'd try here].",
    "[I wrote in|I wrote to you] [about this|on this] [before|the other day|a bit ago][ by e-mail|]. [Short version:|Quick recap:|In a nutshell:]",
    "[My e-mail has the details|The details are in my e-mail|I put it all in an e-mail][, but|;|, though] [here goes again|quick summary|in brief]:",
    "[Not sure you got|Did you get|Hope you saw] my e-mail[ about this|]? [Either way,|Anyway,|In case not:]",
    "[Same issue as my e-mail|This is what my message was about|It's what I wrote about earlier][.|:|,]",
    "[I already sent a message|I dropped you a line|I sent a note] [by e-mail|to your inbox|via e-mail][ too| as well|] - [here's the gist|basically|to recap]:",
)
MORE = (
    "[And|Also,|Plus] I [really|] [needed|wanted] {it} for {occasion}.",
    "[I've|I have] [already|] [tried the website|looked at the FAQ|checked my account] and "
    "[it didn't help|couldn't find anything|got nowhere].",
    "[It's|This is] the first time [this has happened|I've had a problem][, to be fair|, "
    "honestly|].",
    "[Just|I] want to get this [sorted|fixed] [quickly|today|without a fuss|before the weekend].",
    "[Sorry,|Oh, and] I'm [on my phone|at work|on my lunch break] so [I might be slow|replies "
    "may take a sec].",
)
CLARIFY_LEADS = (
    "[I'm sorry about that|Sorry to hear that|Oh no, I'm sorry|That's not good][, {first}|]. ",
    "[Thanks for explaining|Thanks for letting me know|Got it|Understood][, {first}|]. ",
    "[I can help with that|Let's sort that out|I'll help you with that]. [First,|Quick "
    "question:|To start,] ",
    "",
    "[That sounds frustrating|What a hassle|That's annoying, I'm sorry][, {first}|]. ",
    "[Okay, I follow|I see|Right, that makes sense]. [One thing first:|Can I ask:|Just to check,] ",
    "[Before I look|So I look at the right thing|To get this right][, {first}|]: ",
)
ASK_ORDER = (
    "[Thanks|Thank you][, {first}|]. Could you [give me|share|send me] the order number[ for the "
    "{short}|]?",
    "[I'm sorry about that|Sorry about that|Sorry to hear that][, {first}|]. [What's|What is] "
    "the order number[, please|]?",
    "[Let me|I'll] pull up your [order|account][ now| right away|]. Can you confirm the order "
    "number?",
    "[Could|Can] you [tell me|type|paste] the order number[, please|][? It starts with #.|?]",
    "[Got it|Understood|Okay][, {first}|]. [Which|What] order number [is this|was the {short} on]?",
    "[To find it|So I can look it up|To pull it up][, {first}|], [what's|could you give me] the order number[ on the {short}|]?",
    "[Do you have|Have you got] the order number [handy|to hand|nearby][, {first}|]? [It's in the confirmation e-mail.|It begins with #.|]",
    "[Which order|What order] [are we talking about|is it|are you asking about][, {first}|]? [The number will do.|A number helps.|Just the number is fine.]",
)
GIVE_ORDER = (
    "[It's|That's|Should be] {order}[,| -] [the one with the {short}|for the {short}|{short} "
    "order][.|!|]",
    "[Sure|Yep|Ok][,|.] {order}[ - placed {date}| from {date}|], [it had the {short} in "
    "it|with the {short}|the {short} one][.|]",
    "It's {order}[.|!|]",
    "[Sure|Yes|Yep|Of course], [it's|the number is|here:] {order}",
    "{order}",
    "[One sec|Hang on|Just a sec][...|,|.] {order}",
    "Order {order}[, placed {date}|, from {date}|].",
    "[I think it's|Should be] {order}[.|?]",
)
HOLDS = (
    "[Let me|I'll] [pull up|check|look at] [the {short} on|the details of|the tracking for] "
    "order {order}[, {first}|]. [Won't be a minute|One moment|Bear with me|Back shortly][.|!]",
    "[Checking|Looking at|Going through] [the {short}|your {short}|the order with the "
    "{short}] [now|right away|in our system][, {first}|][;|.] [give me a moment|hang "
    "tight|one sec|just a minute][.|!]",
    "[Let me check|Let me look into that|Let me take a look|Let me see][ for you|][, {first}|"
    "][;|.] [one moment|just a moment|bear with me|this won't take long].",
    "[Thanks|Thank you|Thanks, {first}]. I'm [pulling up|checking|looking at] [the order|your "
    "order|order {order}] [now|right now][, this may take a minute|, won't be long|].",
    "[Please hold on|Hold on|Bear with me] [a moment|a minute|for a minute] while I [check|look "
    "at|go through] [the order|your account|the details|the tracking].",
    "[One moment please|Give me a moment|Just a moment] while I check with [our warehouse "
    "system|the shipping team|my notes|the order system|our stock system].",
    "[Okay|Got it|Understood][, {first}|]. [Checking now|Looking into it now|On it][...|.] "
    "[one sec|give me a minute|back in a moment].",
    "[Okay, let me|Right, I'll|Give me a moment to] [dig into|open up|go over] [this|the order|your account][, {first}|][.|!]",
    "[I'm on it|Working on it|Just checking]: [this takes|it'll take|allow] [a minute|a short moment|a few seconds][.|!]",
    "[I'll look up|Let me open|I'm opening] [order {order}|your order|the {short} order] [in our system|on my end|in the order tool][ now|][.|!]",
    "[Thanks, {first}|Perfect|Great]. [I'll need|Give me|Allow me] [a minute or two|two minutes|a little moment] [to check the records|to see what happened|with the order history][.|!]",
    "[Sit tight|Hang on a sec|Stay right there][, {first}|] - [I'm looking it up|checking the {short}|pulling up the order][.|!|...]",
)
HOLD_OKS = (
    "[Sure|Ok|Okay|No problem|Np][,| -] [take your time|I'll wait|no rush|thanks][.|!|]",
    "[Sure|Ok|Okay], [thanks|thank you] {agent_first}[.|!|]",
    "[k|ok|sure] [np|thanks|ty]",
    "[Alright|Okay|Cool][,|.] [I'm here|I'll hang on|go ahead][.|!|]",
)
STILL_THERE = (
    "[Are you still there|Still with me|Are you still with me], {first}?",
    "[Sorry for the wait|Thanks for holding], {first}. [Are you still there?|Still there?]",
    "[Thanks for waiting|Appreciate you waiting], {first}. [You still with me?|Still around?]",
    "[Just checking you're here|Quick check you're still here], {first}?",
)
YES_HERE = (
    "[Yes|Yep|Yeah], [still here|I'm here|here][.|!|]",
    "[Sorry|Yes], [here|I'm back][, go ahead|].",
)
LOOKUPS = (
    "[Thanks for waiting|Thanks for your patience|Thank you for holding][, {first}|]. I "
    "[can see|have|found] order {order} from {date} with the {bought}.",
    "I've found order {order}[, placed on {date}| from {date}|]. [Let me check the options|I "
    "see the problem|I see what happened|Give me one more second].",
    "[Okay|Alright|Right], I have order {order} [in front of me|up] [now|here][, {first}|].",
    "[Thanks for waiting|Sorry for the wait|Got it]. [I've got|Found|Here's] your order: the "
    "{bought}, [ordered|placed] {date}.",
    "[Okay,|Right,|Got it.] I see the {bought} on order {order}[, shipped {date}|, from {date}|].",
    "[There it is|Found it|Okay, there we go]: {order}, [{bought}|the {bought}][, {amount}|].",
    "[Right|Okay|All set], [your account is open|your details are up|the order is open] [on my screen|in front of me|here]: {order}, the {bought}[, {amount}|].",
    "[I've pulled up|Pulling up|I'm looking at] {order} [now|here][ - the {bought}|, with the {bought}|]. [Placed on|Ordered on|Dated] {date}[, is that right|, correct|]?",
    "[That's the one|Yes, I see it|Got it right here]: [the {bought}|a {bought}] on [order |]{order}[, {amount}|, paid {amount}|].",
    "[Thanks|Thank you][, {first}|]. [Your order|Order {order}] [shows|has] the {bought}[ and was placed {date}| from {date}|][.|!]",
    "[Just found|Now I see|I can confirm] [your|the] {bought} [purchase|order] [under|on] {order}[ from {date}|][.|!]",
    "[Your account came up|Your records are here|Everything is loading now][, {first}|]. I [can see|have] the {bought} on [order |]{order}.",
    "[Order|Purchase] {order} [is on my screen|is open here|has come up][, {first}|]: [one|a] {bought}[, bought {date}|, dated {date}|][.|!]",
    "[So|Okay so|Right then], [the system shows|my screen shows|I'm seeing] {order} with [the|your] {bought}[ for {amount}|]. [Does that match?|That's the one, yes?|]",
)
SUPERVISOR = (
    "[Can I|Could I] [speak to|talk to] a supervisor[?|, please?]",
    "I'd like to speak with [a manager|your supervisor][, honestly|].",
    "[This is taking too long|I've been through this already]. [Supervisor please.|Can you "
    "get me a supervisor?]",
)
SUPERVISOR_REPLIES = (
    "I understand, {first}. I can [request|arrange] a supervisor callback, but I'm able to "
    "resolve this for you [right now|here] if you'd like.",
    "[Of course|I hear you]. A supervisor [is available|can call you] [later today|within a "
    "day], but I can [fix|sort] this [now|in this chat]. Shall I go ahead?",
)
SUPERVISOR_OKS = (
    "[Fine|Ok], go ahead.",
    "[Alright|Okay], [let's try|let's see what you can do].",
    "If you can fix it now, [fine|ok].",
)
PROMISES = (
    "I'll need to [check with|confirm with] [our warehouse|the team|my supervisor|"
    "{carrier}] first; you'll get an e-mail [from me|] [within 24 hours|by tomorrow|in a "
    "day or two].",
    "I've [noted everything|added all of this|put your details] [to|on] your case[ for order "
    "{order}|] and [escalated it|passed it to the right team]. We'll [follow up|be in touch] by "
    "e-mail [shortly|within 48 hours|soon].",
    "[I can't finish this in chat|This needs a quick check on our side|I need a colleague to "
    "look at the {short}][, {first}|], so I'll [e-mail you|follow up by e-mail] [once I have "
    "an answer|as soon as I hear back|by end of day].",
    "[Let me|I'll] [take this to|raise this with] [our warehouse|the returns team|the billing "
    "team] and [get back to you|reply] by e-mail [about order {order}|on the {short}|soon].",
    "[This one needs|I need] [a second opinion|sign-off from the team|a check from the warehouse][, {first}|]. [You'll get an e-mail from me|I'll write to you] [within a day|by tomorrow|shortly][.|!]",
    "[I've opened a request|I've logged a request|I've raised a ticket] with [the warehouse|{carrier}|our returns desk][ about the {short}|]. [The answer|Their reply|The result] [comes to you|will reach you] by e-mail[ within 48 hours| in a day or two|].",
    "[I'd rather|I want to] [double-check|confirm|verify] [this|the {short}|order {order}] [with a colleague|with the team|first][, {first}|]. [Look out for|Watch for] my e-mail[ tomorrow| within a day|][.|!]",
)
PROMISE_OKS = (
    "[Ok|Okay|Alright|Fine][,|.] [thanks|I'll wait for the e-mail|I'll keep an eye on my inbox|"
    "please don't forget][.|!|]",
    "[Please do|Sure|Ok then][,|.] [thanks|thank you|thanks {agent_first}][.|!|]",
    "[Alright|Hmm ok]. [Hope it's quick|Don't forget me|I'll wait, I guess][.|!|]",
)
ANYTHING_ELSE = (
    "[Anything else|Is there anything else] [about the {short}|on order {order}|I can "
    "check] [before we wrap up|while you're here|today][, {first}|]?",
    "[Is there|Was there] anything else I can help [you with|with][ today|][, {first}|]?",
    "[Anything|Is there anything] else [today|I can do for you|on your mind][, {first}|]?",
    "Can I help with anything else[, {first}| today|]?",
    "[Before you go|While I have you], is there anything else [about the order|I can look at]?",
    "[Any other questions|Any more questions|Other questions] [about the {short}|on this order|for me][, {first}|]?",
    "[Is that everything|Does that cover it|Have I answered everything][ for you|][, {first}|]?",
    "[Something else I can|Anything more I should] [check|look at|help with][ while we're here|]?",
)
WAITING_TAILS = (
    "[I really need the {short}|I need the {short} soon|The {short} was a gift][.|!|]",
    "[I'm around|I'm here|I'll be at my desk|I'm on my phone] [all day|until 5|for a while|][.|]",
    "[Thanks for|I appreciate] [looking into it|checking|the help][, {agent_first}|][.|!|]",
    "[Fingers crossed|Hope it's good news|Hope it's quick][.|!|]",
    "[My e-mail on file is still right|Same e-mail as on the order|You have my e-mail][.|!|]",
)
HOLD_TAILS = (
    "[I'll read the notes on the {short}|I want to check the {short} first|I'm checking "
    "the {short} details][ too|][.|]",
    "[Thanks for your patience|Thanks for bearing with me|Appreciate you waiting][, {first}|][.|!]",
    "[It may take|This usually takes|Give it] [a minute|two minutes|a moment or two][.|]",
    "[Stay with me|Don't go anywhere|I'll be right back][, {first}|][.|!]",
)
CONFIRM_TAILS = (
    "[It's|Everything's|All of it is] [noted|logged|saved] on [order {order}|your case|your "
    "account][.|]",
    "[Keep an eye on|Check] [your inbox|your e-mail|your spam folder][ too|][, {first}|][.|]",
    "[The note|A note] [about the {short}|on the {short}|for the {short}] [is|has been] "
    "[added|saved][.|]",
    "[Any problem with it|If anything looks off|If it doesn't show up], [just|] [reply to the "
    "e-mail|come back to chat|let us know][.|]",
    "[Your case|The case|Everything] [shows|has] [the change|the update|it] [now|already][, {first}|][.|]",
    "[You don't need|No need] to [do anything else|call us|reply][ about the {short}|][.|]",
)
ACCEPT_TAILS = (
    "[I just want|All I want is] the {short} [sorted|fixed|dealt with][.|!|]",
    "[Thanks for offering|Appreciate the option|That's fair][, {agent_first}|][.|!]",
    "[Better than I expected|That's a relief|Phew][.|!|]",
    "[Please go ahead|Go ahead|Do it][.|!|]",
    "[Let's do it|Yes please|Works for me][, {agent_first}|][.|!]",
    "[That's|It's] [better than nothing|a good outcome|all I was after][.|!|]",
)
ORDER_TAILS = (
    "[It's|That's] the [one|order] with the {short}[.|!|]",
    "[For|About] the {short}[.|]",
    "[I ordered it|Placed it|Bought it] on {date}[.|]",
    "[It went|It came|It was sent] [by|with] {carrier}[, I think|][.|]",
    "[Hope that helps|Is that the right one?|Let me know if you need more]",
)
BYE_THANKS = (
    "[Thanks|Thank you|Thanks a lot|Many thanks|Cheers][, {agent_first}|][!|.|]",
    "[That's|That was] [really|very|super|] [helpful|quick|easy][, thanks|, thank you|][!|.]",
    "[Great|Perfect|Awesome|Brilliant|Lovely|Good], [the {short} was all I needed|that's "
    "all|that's everything|that sorts it][!|.]",
    "[No|Nope|Nah], [that's it|all good|nothing else][ for today| for now|][.|!]",
    "[Brill|Sweet|Fab|Cool], [thanks a million|thanks so much|ta][!|.]",
    "[You sorted it|You fixed it|You made that easy][, thanks|, thank you|][!|.]",
)
BYE_WORDS = (
    "[Bye|Bye now|Goodbye|See ya|Take care][!|.|]",
    "[Have a good|Have a nice|Enjoy your] [day|one|shift][!|.]",
    "[Appreciate it|Appreciate your help|Much appreciated][.|!]",
    "[I'll keep an eye out for the e-mail|I'll watch my inbox|I'll look out for the "
    "confirmation][.|!]",
)
BYES = (
    "[No|Nope|Nah][,|.] [that's all|that's it|all good][.|!] [Thanks|Thank you|Cheers|Thanks "
    "{agent_first}][!|.|]",
    "[Thanks|Thank you|Cheers][, {agent_first}|][,|.|!] [bye|have a good one|that's "
    "everything][!|.|]",
    "[Great|Perfect|Awesome], [thank you|thanks][.|!] [Bye|Bye for now|Have a good day][.|!]",
    "[Thanks|Thank you] for the [help|quick help|help today][!|.]",
    "That's [all|everything][, thanks| for now, thanks|][.|!]",
    "[Nothing else|Nope, nothing else|I'm good], [cheers|ta|thank you][.|!] [Bye|Later|Take care][!|.|]",
    "[All good here|I'm all set|That covers it][, {agent_first}|][.|!] [Thanks again|Cheers again|Thanks for that][!|.]",
)
CLOSINGS = (
    "[Thanks for your patience with the {short}|Sorry again for the trouble with the "
    "{short}|Hope the {short} works out], {first}[.|!] [Take care|Have a good one|Bye for "
    "now|All the best][!|.]",
    "[Glad we got the {short} sorted|Thanks for chatting about the {short}|I've noted "
    "everything on the {short}], {first}. [Enjoy the rest of your day|Take care|Speak "
    "soon|Bye][!|.]",
    "[You're welcome|My pleasure|No problem at all|Anytime], {first}. [Have a great day|Take "
    "care|Enjoy the rest of your day|Have a good one|Enjoy the {short}][!|.]",
    "Thanks for chatting with us, {first}. [Take care|Have a great day|Bye for now][!|.]",
    "[Glad I could help|Happy I could help|Glad we got that sorted][, {first}|]. [Enjoy your "
    "day|Have a lovely evening|Take care|All the best][!|.]",
    "[Thanks for your patience today|Thanks for bearing with me|Thanks for your time], "
    "{first}. [Bye for now|Goodbye|Take care][!|.]",
    "[Okay|Alright|Right], {first}, [that's all on record|we're done here|you're all set][.|!] [Look after yourself|Stay well|Cheers][!|.]",
    "[It was nice chatting|Nice talking to you|Thanks again for writing in], {first}. [We're here if the {short} acts up again|Shout if you need anything|You know where to find us][!|.]",
    "[Your case notes are updated|The case is updated|It's all on file][, {first}|]. [Bye for now|Cheers|Take it easy][!|.]",
    "[Wishing you a good rest of the day|Thanks once more|Cheers for your patience], {first}[!|.] [Bye|Bye now|So long][!|.]",
    "[I'll leave you to it|That's us done|We're all finished], {first}. [Happy shopping|Enjoy the {short}|Look after that {short}][!|.]",
)
