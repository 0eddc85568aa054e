"""What agents and customers say to each other after the case opens, per issue and step.

Shared by chats and e-mails. `[a|b]` marks alternatives (writing_style.vary). Only an
offer names a resolution (its name as the policy articles spell it): no acknowledgement,
follow-up or answer does, so a case's offer is made once, in one channel.
"""

from __future__ import annotations

ACKS = (
    "[Thank you|Thanks] for [reaching out|getting in touch|contacting us], and I'm sorry "
    "about the trouble with your {short}.",
    "Thanks for contacting {company}. I'm sorry to hear [about your {short}|what happened "
    "with order {order}].",
    "I [apologize|am sorry] for the [inconvenience|hassle] with order {order}; I'm looking "
    "into it [now|right away].",
    "Thank you for your [message|e-mail|note]. I understand how [frustrating|annoying] this "
    "must be.",
    "I'm sorry your experience with the {product} hasn't been what you expected.",
    "[Thanks for the details|Thank you for explaining], {first}. [I've opened|I'm looking at] "
    "your order now.",
    "I'm [sorry|really sorry] [to hear that|about this][.|,] [Let's get it sorted|I'll help you "
    "with this].",
)
# (agent's question, customer's answer) per issue.
INFO: tuple[tuple[tuple[str, str], ...], ...] = (
    (
        (
            "Could you send me a photo of the item you received and its label?",
            "[Sure|Of course], [photos attached|I've attached photos]. The label says {wrong}.",
        ),
        (
            "Could you [reply with|send] a photo of the packing slip and the item inside?",
            "Here you go, packing slip and [item photos|photos of what came] attached.",
        ),
        (
            "Is the item you received still [sealed|in its bag]?",
            "[Yes|Yep], I [only opened the box|didn't open the bag].",
        ),
    ),
    (
        (
            "Could you tell me the size you usually wear and the measurements you used?",
            "I'm usually a {size}, and I used the chart on the product page.",
        ),
        (
            "[What does|Which size is on] the label say, and how [does|do] the {short} fit?",
            "The label says {size}. [It feels like|Feels more like] a {other}.",
        ),
        (
            "Have you [worn|used] the {short} outside yet?",
            "[No|Nope], [only tried {it} on at home|just tried {it} on indoors].",
        ),
    ),
    (
        (
            "Could you confirm [when|what time] you tried to cancel?",
            "[About|Maybe] [twenty|ten|thirty] minutes after ordering.",
        ),
        (
            "Could you share a screenshot of the message you got when you tried to cancel?",
            "Screenshot attached. It [just|only] says the order can't be changed.",
        ),
    ),
    (
        (
            "Could you confirm the shipping address on the order?",
            "The address is correct; it's the [one on my account|same as always].",
        ),
        (
            "Could you let me know the last tracking update you can see?",
            "The last update was from {carrier}'s hub, [over a week ago|{days} ago|days ago].",
        ),
        (
            "Did you get any delivery notice or missed-delivery card?",
            "No, nothing [at all|in the mailbox|by e-mail either].",
        ),
    ),
    (
        (
            "Could you send me a photo of the fault and the proof of purchase?",
            "Photos and my receipt from {date} are attached.",
        ),
        (
            "Could you describe what happens when you use the {short}?",
            "{defect_cap}[, every time|, pretty much every time I use {it}|].",
        ),
        (
            "Do you have the serial number handy?",
            "[I can't find one|There isn't one on {it}], [sorry|but I have the receipt].",
        ),
    ),
    (
        (
            "Could you send a photo of the defect so I can log it with our quality team?",
            "Photos attached. {defect_cap}.",
        ),
        (
            "Could you attach a couple of photos showing the problem?",
            "Attached. You can see [the problem|it] [clearly|right away].",
        ),
        (
            "When did you first notice [it|the problem]?",
            "[Right away|The first time I used {it}|After a few days].",
        ),
    ),
    (
        (
            "Could you tell me whether the {short} {has} been worn or washed?",
            "Only tried on at home, tags still attached.",
        ),
        (
            "Do you still have the original packaging?",
            "[Yes, the box too|I kept the box|No, I threw the box out, sorry].",
        ),
    ),
    (
        (
            "Could you confirm the code you used and attach a screenshot of checkout?",
            "The code was {promo}. Screenshot of the checkout attached.",
        ),
        (
            "Could you send me the last four digits of the card that was charged?",
            "It was the card ending in {card}.",
        ),
    ),
    (
        (
            "Could you tell me which size and color you're trying to buy?",
            "A {size} in the color shown on the product page.",
        ),
        (
            "Could you send me a screenshot of the error at checkout?",
            "Screenshot attached. It fails at the payment step.",
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
        "I'm sorry we sent the wrong item; that's a mistake on our side.",
        "Thanks for the photos. I can confirm the warehouse [shipped|packed] the wrong item.",
        "[You're right|I see it too]: [the item|what] we sent doesn't match your order.",
    ),
    (
        "Thanks for the details. I'm sorry the {short} didn't fit as the chart suggested.",
        "I understand: sizing on this line can run {direction}.",
        "[Several customers|A few people] [have mentioned|have told us] the same about this "
        "[model|line], so thank you for letting us know.",
    ),
    (
        "I've checked the order and the cancellation window had already closed in our system.",
        "I'm sorry the cancellation didn't go through on the website.",
        "[It looks like|I can see] the order [moved to|had entered] [packing|fulfilment] "
        "[before|just before] your request.",
    ),
    (
        "I've contacted the carrier and I'm sorry for the delay with your parcel.",
        "I checked with our shipping team and the parcel is held up at the carrier's hub.",
        "[It looks like|I can see] the parcel [was misrouted|got stuck] [at a {carrier} "
        "depot|in transit].",
    ),
    (
        "Thanks for the photos and the receipt. I've reviewed your warranty claim.",
        "I'm sorry the warranty form gave you trouble; I've logged the claim for you.",
        "[That's|This is] [definitely|clearly] not [normal|expected] for the {short}.",
    ),
    (
        "I'm sorry the {short} {was} defective. Thanks for the photos.",
        "I've reviewed the photos and this is clearly a manufacturing fault.",
        "[That|This] [shouldn't|should not] happen [so soon|this early], and I'm sorry it did.",
    ),
    (
        "I've checked the order and the return window.",
        "Thanks for checking. Let me explain the options for your order.",
        "[I've looked at|I pulled up] your order from {date}.",
    ),
    (
        "I can see the code {promo} should have applied to this order.",
        "You're right, the discount was not applied at checkout.",
        "[I checked|I've checked] the charge and the {promo} price [wasn't|was not] applied.",
    ),
    (
        "I'm sorry the {short} {is} not available right now.",
        "Unfortunately that size is out of stock at the moment.",
        "[Our stock for|Stock on] that [size|variant] [is being restocked|sold out faster than "
        "expected].",
    ),
    (
        "I can see the points didn't post correctly to your account.",
        "I've looked into your loyalty account and found the problem.",
        "[It looks like|I can see] the points [from that order|] [never synced|got stuck] "
        "[to|on] your account.",
    ),
)
OFFERS: dict[str, tuple[str, ...]] = {
    "Full Refund": (
        "I can offer you a Full Refund of {amount} to your original payment method.",
        "I've approved a Full Refund for the {short}; you'll see {amount} back on your card.",
        "The best option here is a Full Refund, and I can process that for you [today|now].",
    ),
    "Partial Refund": (
        "I can issue a Partial Refund for the difference.",
        "I've arranged a Partial Refund on the {short} to make up for this.",
        "What I can do is a Partial Refund of part of the {amount} you paid.",
    ),
    "Replacement": (
        "I can send you a Replacement for the {short} at no extra cost.",
        "I'll arrange a Replacement for the {product} [right away|today]; it ships free of charge.",
        "The quickest fix is a Replacement, and I can get a new one out to you [today|this week].",
    ),
    "Store Credit": (
        "I can offer you Store Credit for the full {amount}, which you can use on anything "
        "in our store.",
        "I can issue Store Credit to your account for the {short}.",
        "Would Store Credit work for you? I can add {amount} to your account [right now|today].",
    ),
    "Discount Code": (
        "I can send you a Discount Code for 15% off your next order.",
        "As an apology, I can give you a Discount Code [you can use|for] your next purchase.",
        "I'd like to offer you a Discount Code for your next order to make up for this.",
    ),
    "Loyalty Points Credit": (
        "I can add a Loyalty Points Credit to your account as an apology.",
        "I can offer you a Loyalty Points Credit of 500 points, which never expire.",
        "To make up for this, I can apply a Loyalty Points Credit to your rewards balance.",
    ),
    "Free Shipping on Next Order": (
        "I can offer you Free Shipping on Next Order as a thank-you for your patience.",
        "I can set up Free Shipping on Next Order for your account.",
        "[How about|Would it help if I set up] Free Shipping on Next Order for you?",
    ),
    "Extended Warranty": (
        "I can offer you an Extended Warranty on the {short} to cover this.",
        "I can add an Extended Warranty to your {short}, so you're covered for a full year.",
        "What I can do is register an Extended Warranty for the {product}.",
    ),
}
# How long each resolution takes: the agent's answer to "how long will it take?".
TIMELINES: dict[str, tuple[str, ...]] = {
    "Full Refund": (
        "The refund [usually|normally] shows on your card within 5 to 7 business days.",
        "[Expect|You should see] the money back within 5 to 7 business days[, depending on "
        "your bank|].",
    ),
    "Partial Refund": (
        "The difference [goes back|is refunded] to your original payment method, [usually|"
        "normally] within 5 to 7 business days.",
    ),
    "Replacement": (
        "The new one ships [within two business days|by tomorrow|in the next day or two], "
        "and you'll get a tracking number by e-mail.",
        "It [leaves our warehouse|ships] [within 48 hours|in two business days]; standard "
        "delivery after that is 3 to 5 days.",
    ),
    "Store Credit": (
        "The credit is on your account [right away|immediately] and stays valid for 90 days.",
        "[It's|The credit is] [available|usable] [as soon as I submit it|right now], for 90 days.",
    ),
    "Discount Code": (
        "The code [arrives|will be in your inbox] [in a few minutes|shortly]; it's good for "
        "15% off one order.",
    ),
    "Loyalty Points Credit": (
        "The points [post|show up] within 24 hours and never expire.",
        "[It can take|Allow] up to a day for the points to show in your balance.",
    ),
    "Free Shipping on Next Order": (
        "It applies automatically at checkout on your next order, [nothing to enter|no code "
        "needed].",
    ),
    "Extended Warranty": (
        "The coverage [starts|is active] [right away|today], and the confirmation comes by e-mail.",
    ),
}
IN_WINDOW = (
    "Since you're [still|] within the policy window, ",
    "Good news: your order qualifies, so ",
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
    "[All done|Done|That's done][,| -|:] you'll receive a confirmation e-mail [shortly|in a "
    "few minutes|in your inbox].",
    "I've processed everything on my end[, {first}|]. You'll get a confirmation [within a few "
    "minutes|shortly|by e-mail].",
    "That's been processed[.|, and it's noted on your case.|, and I've added a note to order "
    "{order}.]",
    "[Done!|All set!|There we go!] [You should see|You'll see] the update [in your account|on "
    "order {order}] [within 24 hours|by tomorrow|later today].",
    "[I've|I have] [submitted|put through] [that|everything|the request] [now|for you][, "
    "{first}|].",
)
# Agent, after the offer was made in the other channel: a follow-up that names no
# resolution (the offer is made once).
FOLLOW_UPS = (
    "[Following up on|Just following up after] our [chat|conversation] [earlier|today|"
    "yesterday]: [everything we agreed is processed|it's all processed on our side].",
    "As [promised|mentioned] in [our chat|the chat], here is your confirmation: [it's all "
    "been processed|the request went through].",
    "[A quick note|Just a quick note] to confirm that what we [discussed|agreed] in [chat|the "
    "chat] is [done|processed]. Case reference: {order}.",
)
CHAT_ASKS_STATUS = (
    "Hi, I got your e-mail about order {order}. Just checking it's [all|] [going through|"
    "processed]?",
    "[Hello|Hi]. Following up on the e-mail I got about my {short}. [Is it done?|Any news?]",
    "I'm checking on the status of what [we agreed|was agreed] by e-mail for order {order}.",
)
CHAT_STATUS_ANSWERS = (
    "[Yes|I can see it], [it's been processed|it's gone through] [on our side|already]. "
    "[Nothing else is needed from you.|You don't need to do anything else.]",
    "I [checked|can confirm]: [everything from the e-mail|what we offered by e-mail] is "
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
    "Any update on this?",
    "[Hi, just|Just] [following up|checking in] [on this|on my e-mail|on order {order}].",
    "[Still waiting to hear back|Haven't heard back yet]. Can someone [look at this|reply]?",
    "Hello? [It's been a few days|I still need help with this].",
)
STILL_CHECKING = (
    "[Thanks for your patience|Thank you for waiting]; I'm still [checking|waiting to hear "
    "back] [with our warehouse|with the team|on this] and will update you [soon|shortly|"
    "within 48 hours].",
    "[A quick update|Quick update]: I've [escalated|passed] your case to [the right team|our "
    "specialists] and will [get back to you|update you] as soon as I hear.",
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
