"""Phrasings of case subjects and descriptions, per issue (in the order of texts' issues).

`[a|b]` marks alternatives (writing_style.vary); `{slot}`s are filled from
descriptions.case_slots. The first core of a description names the product; a second
one gets the product's type noun in its place. Subject pronouns are {they} ("it"/"they"),
object pronouns {it} ("it"/"them").
"""

from __future__ import annotations

SUBJECTS: tuple[tuple[str, ...], ...] = (
    (
        "[Incorrect|Wrong] [item|product] [received|delivered|in my order]",
        "[Wrong item|Incorrect item|Not what I ordered] [-|:|in] order {order}",
        "Got [a different item|{wrong}] instead of the {short}",
        "{product} order [contained|came with] the wrong item",
        "Order {order}: [incorrect|wrong] item [shipped|sent]",
        "[Received|Got] {wrong}[, not the {short}| instead of my {short}]",
        "[Mix-up|Mixup|Problem] with [my|order] {order}",
        "This isn't the {short} I ordered",
    ),
    (
        "Size [mismatch|problem|issue] [with|on] [the|my] {product}",
        "{product} run{s} [small|large|{direction}]",
        "Size chart [doesn't match|is off for|is wrong for] the {short}",
        "[Wrong|Bad|Odd] fit [on|with] my {short}",
        "{short} {does}n't fit [as expected|like the chart says]",
        "[Sizing|Fit] question[ - | about ]order {order}",
        "[Need a different size|Exchange for a different size] [of|for] the {product}",
        "{size} {short} fits like a {other}",
    ),
    (
        "[Unable to|Can't|Cannot] cancel [order {order}|my {short} order|my order]",
        "Cancellation [not going through|failing|won't work] [for|on] order {order}",
        "[Please cancel|Need to cancel|Cancel request:] [order {order}|my {product} order]",
        "Cancel [button|option|link] [not working|greyed out|does nothing] [on|for] {order}",
        "[Cancel|Cancelling] the {product}[?| please]",
        "Order placed by mistake[ - |: ]{order}",
    ),
    (
        "[Shipping delay|Delayed shipment|Late delivery] [on|for] order {order}",
        "Where is my {short}?",
        "[Still waiting|Still waiting on|Waiting] [for|on] [my|the] {product}",
        "Order {order} [hasn't arrived|not delivered|still not here|stuck in transit]",
        "Tracking [hasn't updated|stuck|not moving] [for|on] [my {short}|order {order}]",
        "[Package|Parcel|Delivery] [missing|late|overdue][ - order {order}| for {order}|]",
        "{short} [never arrived|not here yet|still in transit] after {days}",
        "[Any update on|Status of] order {order}[?|]",
    ),
    (
        "[Warranty claim|Warranty] [for|on] [my|the] {product}",
        "[Trouble filing|Can't file|Problem submitting] [a|my] warranty claim",
        "{product} [stopped working|failed][ - warranty?|, covered under warranty?|]",
        "Warranty form [won't submit|keeps failing|errors out][ for order {order}|]",
        "Is my {short} [still|] under warranty?",
        "[Warranty help|Warranty question] [for|about] order {order}",
    ),
    (
        "[Defective|Faulty|Damaged] {product}",
        "{short} [arrived damaged|broke after {weeks}|falling apart already]",
        "[Quality|Defect] [issue|problem] with [my|the] {short}",
        "Problem with [my|the] {product}[ from order {order}|]",
        "{defect_cap}",
        "[Faulty|Broken|Damaged] item [in|from] order {order}",
        "[My|The] {short} {is} [defective|broken|faulty]",
    ),
    (
        "[Return|Returning] [the|my] {product}[?|]",
        "[Return policy|Return window] [question|for] [the|my] {short}",
        "Can I still return [the|my] {short}?",
        "How do I return [order {order}|my {short}|this]?",
        "[Confused about|Question about] [the|your] return [policy|process]",
        "Return [eligibility|options] for order {order}",
    ),
    (
        "[Overcharged|Charged full price] [despite|even with] [promo|discount] code {promo}",
        "[Promo|Coupon] code [not applied|ignored|missing] [on|from] order {order}",
        "Charged [full price|too much|the wrong amount] for [the|my] {short}",
        "[Billing error|Wrong charge|Incorrect charge] [on|for] order {order}",
        "{promo} [didn't apply|not applied|didn't work]",
        "Price [discrepancy|difference|problem] on [my|the] {product}",
    ),
    (
        "[Can't|Unable to|Cannot] [buy|order|purchase] another {short}",
        "{product} [out of stock|unavailable] in [my size|{size}|the color I want]",
        "[Checkout fails|Checkout error|Can't check out] [for|with] [the|a second] {short}",
        "When will the {short} be back [in stock|]?",
        "[Reorder|Re-order|Ordering again] [problem|issue][: | - ]{product}",
        "[Item|Product] unavailable[ - {short}|: {product}|]",
    ),
    (
        "Loyalty points [not applied|missing|not showing]",
        "[Can't|Cannot|Unable to] redeem [my|] [loyalty|reward] points",
        "[Points|Rewards] missing [after|from] order {order}",
        "[Loyalty|Points] redemption [failed|didn't work] at checkout",
        "[Where are|Missing] my [reward|loyalty] points[?|]",
        "Points balance [wrong|incorrect|zero][ after order {order}|]",
    ),
)
SUBJECT_PREFIXES = ("URGENT: ", "[Second|2nd] request: ", "[Still|STILL] unresolved: ", "Re: ")
OPENERS = (
    "[I'm writing|Writing] [about|regarding] [a recent order|my last order|an order I placed].",
    "[Hoping you can help|I hope you can help me] with [something|an order|a problem].",
    "[Quick|A quick] question about [a recent purchase|my order].",
    "I [need|could use] [some|a bit of] help with [an order|a purchase].",
    "[Not sure|I'm not sure] [who else to ask|if this is the right place], but here goes.",
)

CORES: tuple[tuple[str, ...], ...] = (
    (
        "I ordered the {product} on {date}, but the [package|box|parcel] had [a completely "
        "different item|something else entirely|the wrong thing] in it.",
        "[My|Order] {order} arrived [today|yesterday|this morning] and instead of the {product} "
        "there was {wrong} inside.",
        "I opened [my parcel|the box|the package] and found {wrong} rather than the {product} I "
        "[paid for|ordered].",
        "The [box|label] for order {order} [was labeled correctly|had my name on it], but the "
        "item inside is not the {product}.",
        "I [received|got] {wrong} in place of the {product} [from|on] my order [placed on|from] "
        "{date}.",
        "The packing slip [lists|says] the {product}, but what [I got|came] is {wrong}.",
        "[Somebody|Someone] at the warehouse [must have|seems to have] mixed up my order: I got "
        "{wrong}, not the {product}.",
        "[No|There's no] {product} in [my|the] [delivery|box]; [just|only] {wrong}.",
    ),
    (
        "I ordered a {size} in the {product} [based on|going by] your size chart, but {they} "
        "fit{s} like a {other}.",
        "The {product} I [received|got] run{s} [noticeably|way|a lot] {direction} than the chart "
        "says.",
        "I followed the [measurements|size guide] on the product page for the {product} and "
        "{they} still {does}n't fit. I'm [normally|usually|always] a {size} with your brand.",
        "The {product} from order {order} {is} {direction} than every other {size} I own.",
        "According to the size chart I'm a {size}, but the {product} {is} [far|much|way] too "
        "{tight}.",
        "I measured [twice|carefully] before ordering the {product}, and the {size} is still "
        "[way|much|far] too {tight}.",
        "[My|The] {size} {product} [arrived|came] and [I can barely get {it} on|{they} "
        "{is} [swimming on me|huge on me]].",
        "The fit of the {product} [is|feels] nothing like the {size} I [ordered|expected].",
    ),
    (
        "I placed order {order} on {date} and tried to cancel it [within the hour|right away|a "
        "few minutes later], but the [website|site|app] keeps showing an error.",
        "I need to cancel my order for the {product}, but the cancel [option|button] is "
        "[greyed out|missing|disabled].",
        "I ordered the {product} by mistake and the [system|website] won't let me cancel the "
        "order, even though it hasn't shipped.",
        "I tried to cancel order {order} [right after|just after|minutes after] placing it and "
        "got a message saying the order can't be changed.",
        "The cancellation page says my {product} order is not eligible, and I don't understand "
        "why.",
        "I found the {product} [cheaper|for less] elsewhere and want to cancel order {order}, but "
        "the cancel link does nothing.",
        "I [accidentally|mistakenly] ordered [two|the wrong color of the|a duplicate] {product} "
        "and need to cancel [before it ships|right away|order {order}].",
    ),
    (
        "I ordered the {product} on {date} and {they} still {has}n't arrived.",
        "[My|The] {product} {was} supposed to arrive [days|a week] ago and the tracking "
        "[hasn't moved|still says label created|hasn't updated].",
        'The tracking for my {product} has said "in transit" for [over a week|{days}|ages] now.',
        "[It's been|It has been] {days} since I ordered the {product} and [nothing has shown up|"
        "there's no sign of {it}|I still don't have {it}].",
        "The [package|parcel] for order {order} shows as [delayed|held at a {carrier} hub|"
        "out for delivery for three days now].",
        "{carrier} says my {product} [was delivered|is delivered], but there's [nothing|no "
        "package] at my door.",
        "Order {order} hasn't [arrived|shown up] and I needed the {product} for {occasion}.",
        "[Tracking|The tracking page] for order {order} [stopped updating|hasn't changed] "
        "[after|since] it left the warehouse.",
    ),
    (
        "My {product} [stopped working|failed|gave out] after [a few months|{weeks}|some time]: "
        "{defect}.",
        "I'm trying to file a warranty claim for the {product}, but the form [keeps failing|"
        "won't submit|errors out] [at the last step|when I upload the receipt].",
        "The {product} I bought on {date} [developed a fault|has a problem]: {defect}.",
        "I [think|believe] the {product} should still be under warranty, [since|because] I "
        "bought {it} on {date}, and now {defect}.",
        "[The warranty page|Your warranty form] [asks for|wants] a serial number I can't find "
        "on the {product}.",
        "{defect_cap}, and I'd like to [use|claim on] the warranty for the {product}.",
        "I [registered|filled in] a warranty claim for the {product} [last week|a while ago] and "
        "[never heard back|got no confirmation].",
    ),
    (
        "The {product} I [received|got] is defective: {defect}.",
        "[My|The] {product} from order {order} [arrived damaged|is faulty]; {defect}.",
        "After [only|just] [two|three|a couple of] uses, {defect} on my {product}.",
        "I [noticed|found] that {defect} on the {product} [right after unboxing|the first "
        "time I used {it}|within a week].",
        "The {product} {is} not usable: {defect}.",
        "{defect_cap}. [This is|That's] the {product} I [ordered|bought] on {date}.",
        "I've {wore} the {product} [maybe|about|only] [twice|three times|a handful of times] "
        "and {defect}.",
        "[Not happy|Pretty unhappy|Disappointed] with the {product}: {defect}.",
    ),
    (
        "I bought the {product} on {date} and I'm not sure whether I can still return {it}.",
        "I want to return the {product}, but the return policy on your site is [confusing|"
        "unclear|hard to follow].",
        "Could you explain how returns work for the {product}? I've only tried {it} on "
        "[indoors|at home|once].",
        "I'd like to return the {product} from order {order}, but I no longer have the "
        "[box|original packaging].",
        "The {product} {is}n't what I expected and I'd like to know my return options.",
        "Your site says one thing about returns and the packing slip says another; which "
        "applies to my {product}?",
        "[I changed my mind about|I don't need] the {product} [after all|anymore] and want to "
        "send {it} back.",
    ),
    (
        "I used [a|the] promo code {promo} when I ordered the {product}, but I was charged the "
        "full price.",
        "My order {order} should have had the discount applied, but my card was charged "
        "{amount} for the {product}.",
        "The [promo|promotional|coupon] code {promo} showed as accepted at checkout, yet the "
        "final charge for the {product} didn't include it.",
        "I was overcharged on order {order}; the sale price for the {product} wasn't applied.",
        "The receipt for my {product} shows no discount even though the code {promo} was "
        "[valid|active|advertised that week].",
        "I was charged {amount} for the {product}, which is the price before the {promo} discount.",
        "[My bank statement|My card statement|The charge on my card] for order {order} is "
        "higher than the total I saw at checkout.",
    ),
    (
        "I [wanted|tried] to order [a second|another|one more] {product} like the one from "
        "order {order}, but {it_is} [gone from the site|listed as unavailable].",
        "Every time I try to [buy|check out with] another {product}, I get an error that "
        "{it_is} unavailable.",
        "I'd like [the same|another] {product} in a {size}, but that size is always out of stock.",
        "I [loved|really like] the {product} I got on {date} and want [another|a second one] "
        "[in a different color|for my {relative}], but checkout fails at the last step.",
        "The {product} in [my size|{size}|the other color] {has} been unavailable for "
        "[weeks|a month|ages].",
        "My cart keeps removing [the|a second] {product} right before I pay.",
    ),
    (
        "I tried to use my loyalty points on my last order, but they weren't applied.",
        "The points from order {order} never showed up in my account.",
        "At checkout my [loyalty|rewards] points balance shows zero, but I had {points} points "
        "[last month|a few weeks ago].",
        "I redeemed points toward the {product}, but I was charged the full amount.",
        "My loyalty points didn't go through when I ordered the {product} on {date}.",
        "I should have earned points for the {product}, but my balance hasn't changed.",
        "[The app|My account page] shows {points} points, but checkout [says|tells me] I "
        "can't use any of them.",
    ),
)
# Optional sentences: (issues they fit, empty = any; phrasing).
EXTRAS: tuple[tuple[tuple[int, ...], str], ...] = (
    (
        (0, 1, 3, 5, 6),
        "[This|It] was [meant to be|supposed to be] a [gift|present] for my "
        "{relative}[.| and now I'm scrambling.| and the timing is awful.]",
    ),
    (
        (0, 1, 3, 5),
        "I [need|needed] {it} for {occasion}[, so timing matters|, which is why I'm worried|].",
    ),
    (
        (0, 4, 5),
        "I've attached [a photo|photos|a couple of pictures|a picture][ of the item| "
        "showing the problem| so you can see|].",
    ),
    ((1,), "I've attached a photo of the label and [my measurements|the size chart I used]."),
    (
        (3,),
        "I [already|] checked with my [neighbors|neighbours] and the [front desk|building "
        "office|mail room][ and nobody has it|, nothing].",
    ),
    ((3,), "[The tracking number|Tracking] just [says|shows] the label was created."),
    ((3,), "It's been {days} [since I placed the order|already|now]."),
    ((1, 4, 5), "I've only {wore} {it} for {use}[, nothing unusual|, nothing extreme|]."),
    ((5,), "[Everything else|The rest of the order] was fine[, just this one item|]."),
    ((4,), "I still have the receipt[ from {date}| and the original box|]."),
    ((7,), "The code was [definitely|clearly] [active|valid] when I ordered on {date}."),
    (
        (7,),
        "I [kept|have] a screenshot of the checkout page [showing the code|with the code "
        "accepted].",
    ),
    ((2,), "I [realised|realized|noticed] the mistake [almost right away|within minutes]."),
    (
        (8,),
        "I've tried [different browsers|the app and the website|clearing my cart][ with "
        "no luck|, same result|].",
    ),
    ((9,), "I've been [collecting|saving up] points for [months|a while] for this."),
    (
        (6,),
        "[The tags are still on|It's unworn and the tags are still attached|I haven't "
        "used {it} outside].",
    ),
    ((), "I'd rather not [wait weeks|go back and forth] [on this|for this|over this]."),
    ((), "[My e-mail|The e-mail] on the [order|account] is the one I'm writing from."),
)
ASKS: dict[str, tuple[str, ...]] = {
    "polite": (
        "Could you please let me know [what my options are|how we can fix this|what the next "
        "steps are]?",
        "I'd [really|] appreciate [your help|any help] [with this|sorting this out].",
        "Thank you [in advance|so much] for [your help|looking into this|your time].",
        "[Is there|Would there be] [anything|something] you can do [to help|about this]?",
        "Please let me know [if you need anything else from me|what you need from me].",
        "[Many thanks|Thanks very much] for [any help|your help][.|!]",
    ),
    "plain": (
        "What are my options?",
        "How do I get this [fixed|sorted]?",
        "[Please advise|Let me know] [on next steps|what to do|how to proceed].",
        "Can you help [me sort this out|with this]?",
        "Let me know what you need from me.",
        "[Thanks|Thank you] for looking into it.",
        "What can you do?",
    ),
    "curt": (
        "Please fix.",
        "Need this sorted.",
        "[Please advise|Advise].",
        "What now?",
        "Please [help|respond].",
    ),
    "annoyed": (
        "I want this [fixed|sorted|resolved] [now|ASAP|this week].",
        "[I expect|I'd like] a [proper|quick|real] [answer|resolution][.|!]",
        "Please don't make me [wait|chase this|call] again.",
        "[This needs|I need this] [resolved|sorted] [quickly|immediately|today].",
        "What are you going to do about it?",
    ),
}
