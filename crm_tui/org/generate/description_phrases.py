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
        "[Wrong item|Incorrect item|Not what I ordered][ -|:| in] order {order}",
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
        "[Can't|Unable to|Cannot] [buy|order|purchase] the {short}",
        "{product} [out of stock|unavailable] in [my size|{size}|the color I want]",
        "[Checkout fails|Checkout error|Can't check out] [for|with] the {short}",
        "When will the {short} be back [in stock|]?",
        "[Ordering|Order] [problem|issue][: | - ]{product}",
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
    "[I'm writing|Writing|Reaching out] [about|regarding|because of] [a recent order|my last "
    "order|an order I placed|a purchase from {month}].",
    "[Hoping you can help|I hope you can help me|Hope someone can help] with [something|an "
    "order|a problem|this].",
    "[Quick|A quick|Just a quick] question about [a recent purchase|my order|the {short} I "
    "bought].",
    "I [need|could use] [some|a bit of] help with [an order|a purchase|my {short}].",
    "[Not sure|I'm not sure] [who else to ask|if this is the right place|where to send this]"
    "[, but here goes|, so here it is|].",
)

CORES: tuple[tuple[str, ...], ...] = (
    (  # incorrect item
        "I [ordered|bought|paid for] the {product} [on {date}|back on {date}|last {month}], "
        "but the [package|box|parcel] [had|contained|came with] [a completely different item|"
        "something else entirely|the wrong thing] [in it|inside].",
        "[My|Order] {order} [arrived|showed up|was delivered] [today|yesterday|this morning|"
        "over the weekend] and [instead of|in place of|rather than] the {product} there was "
        "{wrong} [inside|in the box].",
        "I [opened|unpacked|unwrapped] [my parcel|the box|the package] [tonight|after work|"
        "this morning|] and found {wrong} [rather than|instead of] the {product} I [paid for|"
        "ordered|picked].",
        "The [box|label|shipping label] for order {order} [was labeled correctly|had my name on "
        "it|looked right], but the [item|thing|product] inside [is not|isn't] the {product}.",
        "I [received|got] {wrong} [in place of|instead of] the {product} [from|on] my order "
        "[placed on|from] {date}.",
        "The packing slip [lists|says|shows] the {product}, but what [I got|came|arrived] "
        "[is|was] {wrong}.",
        "[Somebody|Someone] [at the warehouse|in packing] [must have|seems to have|clearly] "
        "mixed up my order: I got {wrong}, not the {product}.",
        "[No|There's no|There was no] {product} in [my|the] [delivery|box|parcel][;|,|:] "
        "[just|only] {wrong}.",
    ),
    (  # size
        "I [ordered|went with|picked] a {size} in the {product} [based on|going by|after "
        "checking] your size chart, but {they} fit{s} [like a {other}|more like a {other}|"
        "nothing like a {size}].",
        "The {product} I [received|got|ordered] run{s} [noticeably|way|a lot|a full size] "
        "{direction} than [the chart says|the size chart suggests|expected].",
        "I followed the [measurements|size guide|fit notes] on the [product page|website|"
        "listing] for the {product} and {they} still {does}n't fit. I'm [normally|usually|"
        "always] a {size} [with your brand|in everything|with other brands].",
        "The {product} from order {order} {is} [noticeably|clearly|way] {direction} than "
        "[every other|any other|the other] {size} I own.",
        "[According to|Going by] the size chart I'm a {size}, but the {product} {is} "
        "[far|much|way|just] too {tight}[ on me| in the waist| everywhere|].",
        "I measured [twice|carefully|myself and my old pair] before ordering the {product}, and "
        "the {size} is still [way|much|far] too {tight}.",
        "[My|The] {size} {product} [arrived|came|got here] and [I can barely get {it} on|"
        "{they} {is} [swimming on me|huge on me|tight everywhere]].",
        "The fit of the {product} [is|feels] nothing like the {size} I [ordered|expected|usually "
        "wear].",
    ),
    (  # cancel
        "I placed order {order} [on {date}|this morning|last night] and tried to cancel it "
        "[within the hour|right away|a few minutes later|almost immediately], but the [website|"
        "site|app] keeps [showing|giving me|throwing] an error.",
        "I need to cancel my order for the {product}, but the cancel [option|button|link] is "
        "[greyed out|missing|disabled|not there].",
        "I [ordered|bought] the {product} by mistake and the [system|website|app] won't let me "
        "cancel [the order|it|order {order}], even though it hasn't shipped[ yet|].",
        "I tried to cancel order {order} [right after|just after|minutes after] placing it and "
        "got a [message|notice|pop-up] saying the order [can't be changed|is locked|is being "
        "processed].",
        "The cancellation page says my {product} order [is not eligible|can't be cancelled], "
        "and I [don't understand why|see no reason for that|can't see why].",
        "I found the {product} [cheaper|for less|on sale] [elsewhere|at another store|in a shop "
        "near me] and want to cancel order {order}, but the cancel link [does nothing|just "
        "reloads the page|errors out].",
        "I [accidentally|mistakenly] ordered [two|the wrong color of the|a duplicate] {product} "
        "and need to cancel [before it ships|right away|order {order}].",
    ),
    (  # delay
        "I [ordered|bought] the {product} [on {date}|back on {date}|{days} ago] and {they} "
        "still {has}n't [arrived|shown up|been delivered].",
        "[My|The] {product} {was} [supposed|due|promised] to arrive [days|a week|last week] ago "
        "and the tracking [hasn't moved|still says label created|hasn't updated|is stuck].",
        'The tracking for my {product} has said "in transit" for [over a week|{days}|ages] '
        "[now|already|with no change].",
        "[It's been|It has been|We're at] {days} since I ordered the {product} and [nothing has "
        "shown up|there's no sign of {it}|I still don't have {it}].",
        "The [package|parcel|shipment] for order {order} [shows as|is listed as|has been] "
        "[delayed|held at a {carrier} hub|out for delivery for three days now].",
        "{carrier} says my {product} [was delivered|is delivered|got delivered] [yesterday|on "
        "Monday|two days ago], but there's [nothing|no package|no box] [at my door|on my porch|"
        "in my mailbox].",
        "Order {order} [hasn't arrived|hasn't shown up|still isn't here] and I [needed|need] "
        "the {product} for {occasion}.",
        "[Tracking|The tracking page] for order {order} [stopped updating|hasn't changed|went "
        "quiet] [after|since] it left the warehouse[ on {date}|].",
    ),
    (  # warranty
        "My {product} [stopped working|failed|gave out|died] after [a few months|{weeks}|some "
        "time|not long]: {defect}.",
        "I'm trying to file a warranty claim for the {product}, but the form [keeps failing|"
        "won't submit|errors out] [at the last step|when I upload the receipt|every time].",
        "The {product} I [bought|got] on {date} [developed a fault|has a problem|started acting "
        "up]: {defect}.",
        "I [think|believe|assume] the {product} should still be under warranty, [since|because|"
        "as] I bought {it} on {date}, and now {defect}.",
        "[The warranty page|Your warranty form|The claim form] [asks for|wants|requires] a "
        "serial number I can't find [on the {product}|anywhere on {it}|on the box].",
        "{defect_cap}, and I'd like to [use|claim on|make a claim under] the warranty for the "
        "{product}.",
        "I [registered|filled in|submitted] a warranty claim for the {product} [last week|a "
        "while ago|{weeks} ago] and [never heard back|got no confirmation|still have no "
        "answer].",
    ),
    (  # defect
        "The {product} I [received|got|ordered] is [defective|faulty|not right]: {defect}.",
        "[My|The] {product} from order {order} [arrived damaged|is faulty|came broken]; {defect}.",
        "After [only|just] [two|three|a couple of|a handful of] [uses|sessions|days], {defect} "
        "on my {product}.",
        "I [noticed|found|saw] that {defect} on the {product} [right after unboxing|the first "
        "time I used {it}|within a week|almost immediately].",
        "The {product} {is} [not usable|unusable|no good to me]: {defect}.",
        "{defect_cap}. [This is|That's|I'm talking about] the {product} I [ordered|bought] on "
        "{date}.",
        "I've {wore} the {product} [maybe|about|only] [twice|three times|a handful of times] "
        "and {defect}[ already|].",
        "[Not happy|Pretty unhappy|Disappointed|Really let down] with the {product}: {defect}.",
    ),
    (  # return
        "I [bought|ordered] the {product} on {date} and I'm not sure whether I can still "
        "return {it}.",
        "I want to return the {product}, but the return policy on your [site|website|page] is "
        "[confusing|unclear|hard to follow|contradictory].",
        "Could you explain how returns work for the {product}? I've only tried {it} on "
        "[indoors|at home|once|for a few minutes].",
        "I'd like to return the {product} from order {order}, but I no longer have the "
        "[box|original packaging|tags].",
        "The {product} {is}n't what I [expected|pictured|had in mind] and I'd like to know my "
        "return options.",
        "Your site says one thing about returns and the packing slip says another; which "
        "[applies to|is right for] my {product}?",
        "[I changed my mind about|I don't need|I ended up not using] the {product} [after all|"
        "anymore|in the end] and want to send {it} back.",
    ),
    (  # overcharge
        "I used [a|the] promo code {promo} when I ordered the {product}, but I was charged "
        "[the full price|full price|the regular price].",
        "My order {order} should have had the [discount|promo] applied, but my card was "
        "charged {amount} for the {product}.",
        "The [promo|promotional|coupon] code {promo} showed as [accepted|applied|valid] at "
        "checkout, yet the [final charge|amount taken|total] for the {product} didn't include "
        "it.",
        "I was overcharged on order {order}; the [sale|promo|discounted] price for the {product} "
        "wasn't applied.",
        "The receipt for my {product} shows no discount even though the code {promo} was "
        "[valid|active|advertised that week].",
        "I was charged {amount} for the {product}, which is the price [before|without] the "
        "{promo} discount.",
        "[My bank statement|My card statement|The charge on my card] for order {order} is "
        "[higher than|more than|not] the total I saw at checkout.",
    ),
    (
        "I [wanted|tried] to [buy|order] the {product} [to go with|after] the {bought} from "
        "order {order}, but {it_is} [gone from the site|listed as unavailable].",
        "Every time I try to [buy|check out with] the {product}, I get an error that {it_is} "
        "unavailable.",
        "I'd like the {product} in a {size}, but that size is always out of stock.",
        "I [loved|really like] the {bought} I got on {date} and [wanted|want] the {product} "
        "[too|as well|to match], but checkout fails at the last step.",
        "The {product} in [my size|{size}|the other color] {has} been unavailable for "
        "[weeks|a month|ages].",
        "My cart keeps removing the {product} right before I pay.",
        "[Your|The] [app|site] [says the {product} {is} back|shows the {product} as in stock], but I can't "
        "[add {it} to my cart|get past the payment step].",
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
        "[This was|It was|The {short} {was}] [meant to be|supposed to be|going to be|"
        "bought as] a [gift|present|surprise] for my {relative}[ {relname}|][.| and now I'm "
        "scrambling.|, and the timing is awful.|, so this is awkward.|.]",
    ),
    (
        (0, 1, 3, 5),
        "I [need|needed|was counting on] {it} for {occasion}[, so timing matters|, "
        "which is why I'm worried|, and that's [soon|close]|].",
    ),
    (
        (0, 4, 5),
        "I've attached [a photo|photos|a couple of pictures|a picture|two photos][ of "
        "the item| showing the problem| so you can see|].",
    ),
    (
        (1,),
        "I've attached a [photo|picture] of the label and [my measurements|the size chart I "
        "used|the chart from your site].",
    ),
    (
        (3,),
        "I [already|] checked with my [neighbors|neighbours|landlord] and the [front desk|"
        "building office|mail room][ and nobody has it|, nothing|; no luck].",
    ),
    (
        (3,),
        "[The tracking number|Tracking|The {carrier} page] [just|still|only] [says|shows] "
        "the label was created.",
    ),
    ((3,), "It's been {days} [since I placed the order|already|now|and counting]."),
    ((3, 8), "[I live in|I'm in|We're in] {city}[, if that matters|, in case that helps|]."),
    (
        (1, 4, 5),
        "I've only {wore} {it} for {use}[, nothing unusual|, nothing extreme|, as intended|].",
    ),
    (
        (5,),
        "[Everything else|The rest of the order] [was|arrived] fine[, just this one item|, "
        "only the {short} is bad|].",
    ),
    ((4,), "I still have the receipt[ from {date}| and the original box| and the packaging|]."),
    ((7,), "The code was [definitely|clearly] [active|valid|advertised] when I ordered on {date}."),
    (
        (7,),
        "I [kept|have|saved] a screenshot of the [checkout page|cart|order summary] "
        "[showing the code|with the code accepted|with {promo} on it].",
    ),
    (
        (2,),
        "I [realised|realized|noticed] the mistake [almost right away|within minutes|before "
        "I even closed the page].",
    ),
    (
        (8,),
        "I've tried [different browsers|the app and the website|clearing my cart|two "
        "different cards][ with no luck|, same result|, nothing works|].",
    ),
    (
        (9,),
        "I've been [collecting|saving up] points for [months|a while|over a year] [for "
        "this|to use on this order|].",
    ),
    (
        (6,),
        "[The tags are still on|It's unworn and the tags are still attached|I haven't used "
        "{it} outside|{It} {is} in [perfect|new|mint] condition].",
    ),
)
# Said by some customers whatever the issue (rarely: they would read as filler).
GENERIC_EXTRAS = (
    "I'd rather not [wait weeks|go back and forth] [on this|for this|over this].",
    "My {relative} {relname} [picked this out|chose this one|was really looking forward to {it}].",
    "[I'm|We're] [away|travelling] [from|after] the [15th|20th|end of the month], so timing "
    "matters.",
)
ASKS: dict[str, tuple[str, ...]] = {
    "polite": (
        "Could you [please|kindly|] let me know [what my options are|how we can fix this|what "
        "the next steps are|what I should do]?",
        "I'd [really|very much|] appreciate [your help|any help|a hand] [with this|sorting this "
        "out|on this one].",
        "Thank you [in advance|so much|very much] for [your help|looking into this|your time]"
        "[, {company}|].",
        "[Is there|Would there be] [anything|something] you can do [to help|about this|for me]?",
        "Please let me know [if you need anything else from me|what you need from me|if you "
        "need photos].",
        "[Many thanks|Thanks very much|Thanks a lot] for [any help|your help|your time][.|!]",
    ),
    "plain": (
        "What are my [options|choices] [here|now|]?",
        "How do I get this [fixed|sorted|resolved]?",
        "[Please advise|Let me know] [on next steps|what to do|how to proceed|what happens now].",
        "Can you help [me sort this out|with this|me out]?",
        "[Let me know|Tell me] what you need from me.",
        "[Thanks|Thank you] for looking into it[.|!]",
        "What can you do [about it|for me|here]?",
        "[Waiting|Looking forward] to [your reply|hearing back|an answer].",
    ),
    "curt": (
        "Please fix[.| this.| asap.]",
        "[Need|I need] this sorted[.| quickly.| this week.]",
        "[Please advise|Advise|Reply asap][.|!]",
        "What now?",
        "Please [help|respond|get back to me][.|!]",
    ),
    "annoyed": (
        "I want this [fixed|sorted|resolved] [now|ASAP|this week|today].",
        "[I expect|I'd like|I want] a [proper|quick|real] [answer|resolution|fix][.|!]",
        "Please don't make me [wait|chase this|call|write] again.",
        "[This needs to be|I need this] [resolved|sorted] [quickly|immediately|today][.|!]",
        "What are you going to do about it?",
        "[Second time|Again], [I'm asking|I'm writing about this][.|!]",
    ),
}
