"""What agents and customers say to each other after the case opens, per issue and step.

Shared by chats and e-mails. `[a|b]` marks alternatives (writing_style.vary). Only an
offer names a resolution (its name as the policy articles spell it): no acknowledgement,
follow-up or answer does, so a case's offer is made once, in one channel.
"""

from __future__ import annotations

ACKS = (
    "[Thank you|Thanks] for [reaching out|getting in touch|contacting us|writing in][,| -] "
    "and I'm sorry about the [trouble|problem|hassle] with your {short}.",
    "Thanks for contacting {company}[ about order {order}|]. I'm sorry to hear [about your "
    "{short}|what happened with order {order}|about the {product}].",
    "I [apologize|am sorry] for the [inconvenience|hassle|trouble] with order {order}; I'm "
    "looking into it [now|right away|as we speak].",
    "Thank you for your [message|e-mail|note][ about the {short}|]. I understand how "
    "[frustrating|annoying|disappointing] this must be.",
    "I'm sorry your [experience with the {product} hasn't been|first weeks with the {product} "
    "haven't been] what you expected.",
    "[Thanks for the details|Thank you for explaining|Thanks for writing in], {first}. "
    "[I've opened|I'm looking at|I have] your order [from {date}|{order}] [now|here].",
    "I'm [sorry|really sorry|so sorry] [to hear that|about this|about the {short}]. "
    "[Let's get it sorted|I'll help you with this|I'm on it].",
    "[I've|I have] [received|read] your [message|e-mail] about order {order} and [I'm|I am] "
    "[on it|looking into it|checking with the team].",
)
# (agent's question, customer's answer) per issue.
INFO: tuple[tuple[tuple[str, str], ...], ...] = (
    (
        (
            "Could you [send|share] [me|] a [photo|picture] of the item you received and its "
            "[label|tag]?",
            "[Sure|Of course|Yes], [photos attached|I've attached photos|attached]. The label says "
            "{wrong}[.|, clearly not the {short}.]",
        ),
        (
            "Could you [reply with|send|attach] a [photo|picture] of the packing slip and the "
            "item inside?",
            "[Here you go|Attached|Done], packing slip and [item photos|photos of what came|a "
            "picture of the item] [attached|included].",
        ),
        (
            "Is the item you received still [sealed|in its bag|unopened]?",
            "[Yes|Yep|Yeah], I [only opened the box|didn't open the bag|just looked inside].",
        ),
    ),
    (
        (
            "Could you tell me the size you usually wear and the measurements you [used|took]?",
            "I'm [usually|normally|always] a {size}, and I used the [chart|size chart|guide] on "
            "the [product page|site].",
        ),
        (
            "[What does|Which size is on] the label [say|show], and how [does|do] the {short} fit?",
            "The label says {size}. [It feels like|Feels more like|Fits like] a {other}.",
        ),
        (
            "Have you [worn|used] the {short} [outside|for {use}] yet?",
            "[No|Nope|Not yet], [only tried {it} on at home|just tried {it} on indoors|only for "
            "a few minutes].",
        ),
    ),
    (
        (
            "Could you confirm [when|what time|roughly when] you tried to cancel?",
            "[About|Maybe|Around] [twenty|ten|thirty|fifteen] minutes after ordering[ on {date}|].",
        ),
        (
            "Could you [share|send] a screenshot of the message you got when you tried to cancel?",
            "[Screenshot attached|Attached|Here it is]. It [just|only] says the order can't be "
            "changed.",
        ),
    ),
    (
        (
            "Could you confirm the shipping address on the order[ for the {short}|]?",
            "The address is [correct|right]; it's the [one on my account|same as always|one in "
            "{city}].",
        ),
        (
            "Could you let me know the last tracking update you can see?",
            "The last update was from {carrier}'s hub, [over a week ago|{days} ago|days ago|on "
            "the day after I ordered].",
        ),
        (
            "Did you get any delivery [notice|e-mail] or missed-delivery card?",
            "[No|Nope], nothing [at all|in the mailbox|by e-mail either|from {carrier}].",
        ),
    ),
    (
        (
            "Could you send me a [photo|picture] of the fault and the proof of purchase?",
            "[Photos|Pictures] and my receipt from {date} are attached.",
        ),
        (
            "Could you describe what happens when you use the {short}?",
            "{defect_cap}[, every time|, pretty much every time I use {it}|, since last week|].",
        ),
        (
            "Do you have the serial number handy?",
            "[I can't find one|There isn't one on {it}], [sorry|but I have the receipt].",
        ),
    ),
    (
        (
            "Could you send a [photo|picture] of the defect so I can log it with our quality team?",
            "[Photos|Pictures] attached. {defect_cap}.",
        ),
        (
            "Could you attach [a couple of|two or three|some] photos showing the problem?",
            "[Attached|Sent|Done]. You can see [the problem|it|the damage] [clearly|right away|in "
            "the second one].",
        ),
        (
            "When did you first notice [it|the problem]?",
            "[Right away|The first time I used {it}|After a few days|About a week in].",
        ),
    ),
    (
        (
            "Could you tell me whether the {short} {has} been [worn|used] or washed?",
            "[Only tried on at home|Never worn outside|Just tried on], tags still attached.",
        ),
        (
            "Do you still have the original packaging?",
            "[Yes, the box too|I kept the box|No, I threw the box out, sorry|Yes, everything].",
        ),
    ),
    (
        (
            "Could you confirm the code you used and attach a screenshot of [checkout|the cart]?",
            "The code was {promo}. [Screenshot|A screenshot] of the checkout [attached|is "
            "attached].",
        ),
        (
            "Could you send me the last four digits of the card that was charged?",
            "It was the card ending in {card}.",
        ),
    ),
    (
        (
            "Could you tell me which size and color you're trying to [buy|order]?",
            "A {size} in the color shown on the [product page|site|listing].",
        ),
        (
            "Could you send me a screenshot of the error at checkout?",
            "[Screenshot attached|Attached|Here]. It fails at the [payment|last] step.",
        ),
    ),
    (
        (
            "Could you confirm the e-mail address on your loyalty account?",
            "It's [this one|the one I'm writing from|the same as on my orders].",
        ),
        (
            "Could you tell me roughly how many points you expected to see?",
            "[About|Around|Roughly] {points} points.",
        ),
    ),
)
# The agent's understanding of the situation, said before the offer.
EMPATHY: tuple[tuple[str, ...], ...] = (
    (
        "I'm [sorry|so sorry] we sent [the wrong item|{wrong}]; that's [a mistake on our side|"
        "our mistake|on us, not you].",
        "[Thanks for the photos|Thank you for the pictures|Thanks for checking]. I can confirm "
        "the warehouse [shipped|packed|sent] the wrong item [for order {order}|in place of the "
        "{short}|].",
        "[You're right|I see it too|I've checked]: [the item|what] we sent doesn't match [your "
        "order|the {product}|order {order}].",
    ),
    (
        "[Thanks for the details|Thank you for the measurements]. I'm sorry the {short} didn't "
        "fit [as the chart suggested|the way you expected|like a {size} should].",
        "I understand: sizing on [this line|the {product}|this model] can run {direction}.",
        "[Several customers|A few people|Others] [have mentioned|have told us|noticed] the same "
        "about [this model|the {product}|this line], so thank you for letting us know.",
    ),
    (
        "I've checked [the order|order {order}] and the cancellation window had already closed "
        "[in our system|by the time you tried|when your request came in].",
        "I'm sorry the cancellation didn't go through on the [website|site|app][ for order "
        "{order}|].",
        "[It looks like|I can see] the order [moved to|had entered] [packing|fulfilment] "
        "[before|just before|minutes before] your request.",
    ),
    (
        "I've contacted [the carrier|{carrier}] and I'm sorry for the delay with your "
        "[parcel|{short}|order].",
        "I checked with our shipping team and the [parcel|package] [is held up|is sitting|got "
        "stuck] at [the carrier's hub|a {carrier} depot|a sorting center].",
        "[It looks like|I can see] the [parcel|shipment] [was misrouted|got stuck|was delayed] "
        "[at a {carrier} depot|in transit|after leaving us on {date}].",
    ),
    (
        "[Thanks for the photos and the receipt|Thank you for the details]. I've reviewed your "
        "warranty claim for the {product}.",
        "I'm sorry the warranty form gave you trouble; I've logged the claim [for you|myself|"
        "on our side].",
        "[That's|This is] [definitely|clearly] not [normal|expected|how the {short} should "
        "behave] [for the {short}|after so little use|].",
    ),
    (
        "I'm [sorry|so sorry] the {short} {was} defective. [Thanks for the photos.|Thank you "
        "for letting us know.|That shouldn't happen.]",
        "I've reviewed the [photos|pictures|details] and this is clearly a [manufacturing "
        "fault|factory defect|quality problem] [with the {product}|on our side|].",
        "[That|This] [shouldn't|should not] happen [so soon|this early|with a new {short}], "
        "and I'm sorry it did.",
    ),
    (
        "I've checked [the order|order {order}] and the return window[ for the {short}|].",
        "Thanks for [checking|asking]. Let me explain the options for [your order|the "
        "{product}|order {order}].",
        "[I've looked at|I pulled up] your order from {date}[ with the {short}|].",
    ),
    (
        "I can see the code {promo} should have applied to [this order|order {order}].",
        "You're right, the [discount|{promo} discount] was not applied at checkout.",
        "[I checked|I've checked] the charge [of {amount}|on order {order}] and the {promo} "
        "price [wasn't|was not] applied.",
    ),
    (
        "I'm sorry the {short} {is} not available [right now|at the moment|in your size].",
        "Unfortunately that [size|variant|color] [is|was] out of stock [at the moment|this "
        "week|for now].",
        "[Our stock for|Stock on] the {short} [is being restocked|sold out faster than "
        "expected|is running low].",
    ),
    (
        "I can see the points [didn't post|never posted|weren't added] correctly to your account.",
        "I've looked into your loyalty account and [found the problem|see what happened|spotted "
        "the issue].",
        "[It looks like|I can see] the points [from order {order}|from that order|] [never "
        "synced|got stuck|didn't transfer] [to|on] your account.",
    ),
)
OFFERS: dict[str, tuple[str, ...]] = {
    "Full Refund": (
        "[Let me|I'll] [put through|process|arrange] a Full Refund [for order {order}|of {amount}|"
        "for the {short}][ right now| today|].",
        "[My suggestion is|I'd suggest] a Full Refund[: {amount} back to your card| of {amount}|].",
        "How about a Full Refund[ of {amount}| for the {short}|]?",
        "I can [offer you|issue|arrange] a Full Refund of {amount} [to your original payment "
        "method|back to your card|to the card you used].",
        "I've [approved|put through|set up] a Full Refund for the {product}; you'll see "
        "{amount} back on your [card|statement].",
        "The best option here is a Full Refund[ of {amount}|], and I can process that [for you "
        "today|now|right away].",
    ),
    "Partial Refund": (
        "[I'm able to|I can] [offer|arrange] a Partial Refund [on order {order}|for the {short}|"
        "right away].",
        "[How about|Would] a Partial Refund [on the {short}|for order {order}] [work for you|help]"
        "?",
        "I can issue a Partial Refund for the difference[ on order {order}|].",
        "I've [arranged|set up] a Partial Refund on the {product} to [make up for this|cover "
        "the difference|put this right].",
        "What I can do is a Partial Refund of part of the {amount} you paid[ for the {short}|].",
    ),
    "Replacement": (
        "[Let me|I'll] [ship|send] you a Replacement [{short}|for the {product}] [free of "
        "charge|at our cost|today].",
        "[How about|Would you like] a Replacement [for the {short}|of the {product}][, shipped "
        "free|]?",
        "I can send you a Replacement [for the {short}|for the {product}] at no extra cost.",
        "I'll arrange a Replacement for the {product} [right away|today|this afternoon]; it "
        "ships free of charge.",
        "The [quickest|simplest|best] fix is a Replacement, and I can get a new one out to "
        "you [today|this week|by tomorrow].",
    ),
    "Store Credit": (
        "[I can put|Let me put] {amount} of Store Credit [on your account|toward your next "
        "order][, {first}|].",
        "[How about|Would you take] Store Credit [for the {short}|of {amount}] [instead|]?",
        "I can offer you Store Credit for the full {amount}, which you can use on anything "
        "[in our store|on the site|you like].",
        "I can issue Store Credit to your account for the {product}[ ({amount})|].",
        "Would Store Credit work for you? I can add {amount} to your account [right now|today|"
        "straight away].",
    ),
    "Discount Code": (
        "[Let me|I'll] [send|e-mail] you a Discount Code [for 15% off|good for 15% off] "
        "[your next order|anything on the site].",
        "I can send you a Discount Code for 15% off your next order[ with us|].",
        "As an apology, I can give you a Discount Code [you can use|for] your next purchase.",
        "I'd like to offer you a Discount Code for your next order to make up for [this|the "
        "trouble with the {short}].",
    ),
    "Loyalty Points Credit": (
        "[Let me|I'll] [add|post] a Loyalty Points Credit to your [account|balance][ for the "
        "trouble| today|].",
        "I can add a Loyalty Points Credit to your account as an apology[ for the {short}|].",
        "I can offer you a Loyalty Points Credit of [500|750|1,000] points, which never expire.",
        "To make up for this, I can apply a Loyalty Points Credit to your [rewards balance|"
        "account|loyalty account].",
    ),
    "Free Shipping on Next Order": (
        "[Let me|I'll] [add|put] Free Shipping on Next Order [on|to] your account[ for the "
        "trouble|, {first}|].",
        "I can offer you Free Shipping on Next Order as a thank-you for your patience.",
        "I can set up Free Shipping on Next Order for your account[, {first}|].",
        "[How about|Would it help if I set up] Free Shipping on Next Order for you?",
    ),
    "Extended Warranty": (
        "[Let me|I'll] [register|add] an Extended Warranty [on|for] the {short}[ at no cost|"
        " today|].",
        "I can offer you an Extended Warranty on the {product} to cover this.",
        "I can add an Extended Warranty to your {short}, so you're covered for a full year "
        "[from {date}|from the purchase date].",
        "What I can do is register an Extended Warranty for the {product}[ bought on {date}|].",
    ),
}
# How long each resolution takes: the agent's answer to "how long will it take?".
TIMELINES: dict[str, tuple[str, ...]] = {
    "Full Refund": (
        "The refund [usually|normally|typically] [shows|appears|lands] on your [card|"
        "statement] within 5 to 7 business days[, {first}|].",
        "[Expect|You should see] the [money|{amount}] back within 5 to 7 business days[, "
        "depending on your bank|, sometimes sooner|].",
    ),
    "Partial Refund": (
        "The difference [goes back|is refunded|is returned] to your original payment method, "
        "[usually|normally|typically] within 5 to 7 business days.",
    ),
    "Replacement": (
        "The new [one|{short}] ships [within two business days|by tomorrow|in the next day or "
        "two], and you'll get a tracking number by e-mail.",
        "It [leaves our warehouse|ships] [within 48 hours|in two business days]; standard "
        "delivery after that is 3 to 5 days[ to {city}|].",
    ),
    "Store Credit": (
        "The credit is on your account [right away|immediately|as soon as I submit it] and "
        "stays valid for 90 days.",
        "[It's|The credit is] [available|usable|there] [as soon as I submit it|right now|from "
        "today], for 90 days.",
    ),
    "Discount Code": (
        "The code [arrives|will be in your inbox|comes by e-mail] [in a few minutes|shortly|"
        "within the hour]; it's good for 15% off one order.",
    ),
    "Loyalty Points Credit": (
        "The points [post|show up|appear] within 24 hours and never expire.",
        "[It can take|Allow] up to a day for the points to show in your [balance|account]"
        "[, {first}|].",
    ),
    "Free Shipping on Next Order": (
        "It applies automatically at checkout on your next order, [nothing to enter|no code "
        "needed|no code to remember].",
    ),
    "Extended Warranty": (
        "The coverage [starts|is active|kicks in] [right away|today|immediately], and the "
        "confirmation comes by e-mail.",
    ),
}
IN_WINDOW = (
    "Since you're [still|] within the [policy|return|30-day] window, ",
    "[Good news:|The good news is that|Luckily,] your order qualifies, so ",
    "[As|Because] the order is [recent|still recent|quite new], ",
    "[Since|As] this [is on us|was our mistake|shouldn't have happened], ",
    "",
    "",
    "",
    "",
)
ACCEPTS = (
    "[That works for me|That works|Works for me|That's fine by me][,|.] [thank you|thanks|"
    "thanks a lot][.|!]",
    "[Yes|Yeah|Ok], please go ahead [with that|then][.|!]",
    "[Okay|OK|Fine|Alright], that sounds [fair|reasonable|good][.|!|, thanks.]",
    "[Great|Good|Perfect], thanks for the [quick|] help[.|!]",
    "Thank you, I'll take [that option|that|it][.|!]",
    "[Sure|Yes], [let's do that|do that please|go for it][.|!]",
    "[Alright|All right], [I can live with that|that's fine|I guess that's ok][.|!]",
    "[Oh nice|Oh good|That's great], [yes please|I'll take it][.|!]",
)
HOW_LONG = (
    "How long will [it|that] take?",
    "[And|OK,|So] how long does that [take|usually take]?",
    "When will I [see it|get it|see that]?",
    "[How soon|When] [will that go through|does that happen|will it be done]?",
    "[Any idea|Do you know] how long [it takes|that'll be]?",
)
DECLINES = (
    "[Hmm,|Honestly,|Sorry, but] I'd rather not. [Is there anything else?|Any other option?]",
    "That doesn't [really|] work for me. [What else can you do?|Are there other options?]",
    "I [don't think|doubt] that helps me much[, to be honest|]. [Anything else?|What else is "
    "there?]",
)
ALTERNATIVE_LEADS = (
    "[Understood|I understand|Fair enough]. ",
    "[Of course|No problem]. [In that case,|Instead,] ",
    "[Okay|Got it], [let me see|let's look at another option]. ",
)
CONFIRMS = (
    "[All done|Done|That's done|Okay, done][,| -|:] you'll receive a confirmation e-mail "
    "[shortly|in a few minutes|in your inbox][, {first}|].",
    "I've processed everything on my end[, {first}|]. You'll get a confirmation [within a few "
    "minutes|shortly|by e-mail][ for order {order}|].",
    "That's been processed[.|, and it's noted on your case.|, and I've added a note to order "
    "{order}.|; the note is on your account.]",
    "[Done!|All set!|There we go!|Sorted!] [You should see|You'll see] the update [in your "
    "account|on order {order}|on your account] [within 24 hours|by tomorrow|later today].",
    "[I've|I have] [submitted|put through|entered] [that|everything|the request] [now|for "
    "you][, {first}|][.|!]",
    "[Perfect|Great|Okay], [it's|that's] [in the system|on its way|all through] [now|for order "
    "{order}|].",
)
# Agent, after the offer was made in the other channel: a follow-up that names no
# resolution (the offer is made once).
FOLLOW_UPS = (
    "[Following up on|Just following up after] our [chat|conversation] [earlier|today|"
    "yesterday][ about the {short}|]: [everything we agreed is processed|it's all processed "
    "on our side|it's all done].",
    "As [promised|mentioned] in [our chat|the chat], here is your confirmation [for order "
    "{order}|]: [it's all been processed|the request went through|everything is in place].",
    "[A quick note|Just a quick note] to confirm that what we [discussed|agreed] in [chat|the "
    "chat] is [done|processed|complete]. [Case reference|Reference]: {order}.",
)
CHAT_ASKS_STATUS = (
    "Hi, I got your e-mail about order {order}. Just checking it's [all|] [going through|"
    "processed]?",
    "[Hello|Hi]. Following up on the e-mail I got about my {short}. [Is it done?|Any news?]",
    "I'm checking on the status of what [we agreed|was agreed] by e-mail for order {order}.",
)
CHAT_STATUS_ANSWERS = (
    "[Yes|I can see it], [it's been processed|it went through] [on our side|already]. "
    "[Nothing else is needed from you.|You don't need to do anything else.]",
    "[I checked|I've checked|I looked]: [everything from the e-mail|what we offered by e-mail] is "
    "[processed|in place].",
)
# A question from the customer after the confirmation, and the agent's answer.
AFTERTHOUGHTS = (
    (
        "[Do I need to|Should I] send anything back?",
        "[No|Not for this one], you can keep [it|the item][, {first}|]. [If we need it back|If "
        "anything changes], we'll e-mail you a prepaid label.",
    ),
    (
        "Will I get an e-mail about this?",
        "Yes, [a confirmation|the confirmation] goes to the e-mail on your account[ shortly|].",
    ),
    (
        "Is there a [case number|reference] I can refer to?",
        "[Yes,|Sure,] [just|] mention order {order} and we'll find it[ right away|].",
    ),
    (
        "[Oh, and|Also,] [will this show up|will I see this] on my account?",
        "[Yes|It will], [under order {order}|in your order history][ within a day|].",
    ),
)
NUDGES = (
    "Any update on [this|order {order}|my {short}]?",
    "[Hi, just|Just] [following up|checking in] [on this|on my e-mail|on order {order}][.|?]",
    "[Still waiting to hear back|Haven't heard back yet|No reply yet]. Can someone [look at "
    "this|reply|get back to me]?",
    "Hello? [It's been a few days|I still need help with this|Is anyone reading these][.|?]",
)
STILL_CHECKING = (
    "[Thanks for your patience|Thank you for waiting|Sorry for the wait], {first}; I'm still "
    "[checking|waiting to hear back] [with our warehouse|with the team|on order {order}] and "
    "will update you [soon|shortly|within 48 hours].",
    "[A quick update|Quick update|Just an update]: I've [escalated|passed] your case [about "
    "the {short}|] to [the right team|our specialists|my supervisor] and will [get back to "
    "you|update you] as soon as I hear.",
    "[We're still|I'm still] [looking into|working on] order {order}[; nothing is needed from "
    "you yet|. No action is needed on your side for now|]. I'll [write|e-mail] again [by "
    "Friday|in a day or two|as soon as I know more].",
)
THANKS = (
    "[Thanks again|Thank you again|Thanks so much] for your help[!|.]",
    "[Perfect|Great|Lovely], thank you so much[.|!]",
    "Got the confirmation[, thanks|, thank you|]. [Much appreciated.|]",
    "Appreciate it, have a [good|great|nice] [day|week|weekend].",
    "[Received|Got it], [thanks|thank you][!|.]",
    "[Great|Brilliant|Perfect], that's [all|everything] I needed.",
)
FINALS = (
    "You're very welcome[, {first}|]. Have a [great|lovely|good] [day|week]!",
    "Happy to help. Enjoy the rest of your [week|day|weekend]!",
    "Glad I could help[, {first}|]. Take care!",
    "[You're welcome|My pleasure], {first}. [Don't hesitate to|Feel free to] reach out "
    "[anytime|if anything else comes up|if you need anything else].",
    "[Glad that's sorted|Glad we could sort this out][, {first}|]. [All the best|Take care]!",
)
