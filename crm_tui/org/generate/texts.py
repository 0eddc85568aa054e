"""Templates for case subjects and descriptions, e-mails and chat transcripts.

Each piece has several phrasings; a message is composed from an opening, the issue's
core sentences (with product-specific details), an ask and a closing, so texts vary
from case to case. Slots: {product} {order} {date} {size} {defect} {first} {agent}
{amount} {company} {short} (the product's type noun, lower-case).
"""

from __future__ import annotations

import random

from crm_tui.org.generate.data import (
    ACCESSORY,
    APPAREL,
    ELECTRONICS,
    EQUIPMENT,
    FOOTWEAR,
)

# Issue names in the order of kbtexts.POLICIES.
INCORRECT, SIZE, CANCEL, DELAY, WARRANTY, DEFECT, RETURN, OVERCHARGE, UNAVAILABLE, LOYALTY = range(
    10
)

# Relative issue frequency per product kind (same order as above).
ISSUE_WEIGHTS: dict[str, tuple[float, ...]] = {
    FOOTWEAR: (10, 14, 5, 10, 2, 9, 8, 6, 5, 4),
    APPAREL: (10, 16, 5, 10, 0, 7, 9, 6, 6, 4),
    EQUIPMENT: (9, 0, 5, 11, 9, 12, 7, 6, 6, 4),
    ELECTRONICS: (7, 0, 5, 9, 16, 14, 6, 6, 7, 4),
    ACCESSORY: (10, 3, 5, 10, 3, 9, 7, 6, 6, 4),
}
# Days from the order to the case: (min, max) per issue.
DELAYS: tuple[tuple[int, int], ...] = (
    (3, 21),
    (4, 25),
    (0, 2),
    (6, 18),
    (20, 75),
    (2, 28),
    (5, 35),
    (1, 20),
    (0, 12),
    (2, 30),
)
# Base handle time in hours per issue.
HANDLE_HOURS: tuple[float, ...] = (40, 36, 10, 30, 90, 60, 20, 28, 16, 14)
PRIORITY: tuple[tuple[int, int, int], ...] = (  # Low, Medium, High weights per issue
    (30, 50, 20),
    (45, 45, 10),
    (20, 50, 30),
    (25, 50, 25),
    (20, 45, 35),
    (15, 45, 40),
    (50, 40, 10),
    (25, 50, 25),
    (45, 45, 10),
    (55, 40, 5),
)

DEFECTS: dict[str, tuple[str, ...]] = {
    FOOTWEAR: (
        "the sole is separating from the upper",
        "the stitching on the heel came apart",
        "the midsole has a visible crack",
        "one of the eyelets ripped out",
        "the insole is glued in crooked",
        "the outsole is peeling at the toe",
        "the heel counter collapsed on one side",
    ),
    APPAREL: (
        "a seam split after the first wash",
        "the zipper broke on the first day",
        "there is a hole near the hem",
        "the fabric is already pilling badly",
        "the waistband elastic snapped",
        "the print is peeling off",
        "the color bled onto everything else in the wash",
    ),
    ELECTRONICS: (
        "{it} won't hold a charge",
        "the screen stays blank",
        "{it} stopped syncing and won't turn on",
        "the charging contacts corroded",
        "the sensor gives no reading at all",
        "the buttons stopped responding",
        "{it} keep{s} restarting every few minutes",
    ),
    EQUIPMENT: (
        "{it} arrived cracked",
        "the handle came loose",
        "{it} started losing air",
        "one of the parts was missing from the box",
        "the coating is flaking off",
        "{it} split along the seam after two uses",
        "{it} arrived bent out of shape",
    ),
    ACCESSORY: (
        "the strap snapped",
        "{it} tore the first time I used {it}",
        "the lens came out of the frame",
        "the stitching unraveled",
        "the buckle broke off",
        "the silicone split at the edge",
    ),
}
SIZES: dict[str, tuple[str, ...]] = {
    FOOTWEAR: (
        "size 7",
        "size 8",
        "size 8.5",
        "size 9",
        "size 9.5",
        "size 10",
        "size 10.5",
        "size 11",
        "size 12",
    ),
    APPAREL: ("size XS", "size S", "size M", "size L", "size XL", "size XXL"),
}

SUBJECTS: tuple[tuple[str, ...], ...] = (
    (
        "Incorrect Item Received",
        "Wrong item in my {product} order",
        "Received the wrong item",
        "Got a different item instead of the {product}",
        "Order {order}: incorrect item shipped",
        "Wrong product delivered for order {order}",
        "{product} order contained the wrong item",
        "Received Incorrect Item",
    ),
    (
        "Size Mismatch for {product}",
        "{product} run{s} {direction} than the size chart",
        "Size chart doesn't match the {product}",
        "Wrong fit on my {product}",
        "Size issue with {product}",
        "{product} fit{s} nothing like the chart",
        "Size Mismatch",
    ),
    (
        "Unable to Cancel Order for {product}",
        "Can't cancel order {order}",
        "Cancellation not going through for order {order}",
        "Need to cancel my {product} order",
        "Cancel button not working on order {order}",
        "Unable to Cancel Order",
    ),
    (
        "Shipping Delay on Order {order}",
        "Where is my {product}?",
        "{product} still not delivered",
        "Package delayed for order {order}",
        "Order {order} hasn't arrived",
        "Tracking hasn't updated for my {product}",
        "Late delivery of {product}",
        "Shipping Delay",
    ),
    (
        "Trouble Filing Warranty Claim for {product}",
        "Warranty claim for {product}",
        "Warranty claim not going through",
        "{product} stopped working, need warranty help",
        "Can't submit warranty claim for order {order}",
        "Warranty question about my {product}",
    ),
    (
        "Defective {product}",
        "{product} arrived damaged",
        "Defective Product Received",
        "Problem with my {product}",
        "Faulty {product} from order {order}",
        "{product} broke after a few uses",
        "Quality issue with {product}",
    ),
    (
        "Question about returning {product}",
        "Return policy for {product}",
        "Can I still return my {product}?",
        "Confused about the return policy",
        "How do I return order {order}?",
        "Return eligibility for {product}",
    ),
    (
        "Overcharged Despite Promo Code",
        "Promo code not applied to order {order}",
        "Charged full price for {product}",
        "Discount missing from order {order}",
        "Billing error: promo code ignored",
        "Overcharged on my {product} order",
    ),
    (
        "Unable to Purchase {product}",
        "{product} out of stock in my size",
        "Can't check out with {product}",
        "{product} unavailable",
        "Checkout fails for {product}",
        "When will the {product} be back in stock?",
    ),
    (
        "Loyalty Points Not Applied",
        "Can't redeem my loyalty points",
        "Points missing after order {order}",
        "Loyalty redemption failed at checkout",
        "Loyalty points question for order {order}",
        "My reward points disappeared",
    ),
)

# The customer's account of the problem: core sentences per issue, several phrasings.
# The first core names the product; a second one uses {short} (its type, lower-case).
CORES: tuple[tuple[str, ...], ...] = (
    (
        "I ordered the {product} on {date}, but the package had a completely different item in it.",
        "My order {order} arrived today and instead of the {product} there was {wrong} inside.",
        "I opened my parcel and found {wrong} rather than the {product} I paid for.",
        "The box for order {order} was labeled correctly, but the item inside is not the {product}.",
        "I received {wrong} in place of the {product} from my order placed on {date}.",
        "The packing slip lists the {product}, but what I got is {wrong}.",
    ),
    (
        "I ordered a {size} in the {product} based on your size chart, but {it} fit{s} like a "
        "{other}.",
        "The {product} I received run{s} noticeably {direction} than the chart says.",
        "I followed the measurements on the product page for the {product} and {it} still "
        "{does}n't fit. I'm normally a {size} with your brand.",
        "The {product} from order {order} {is} {direction} than every other {size} I own.",
        "According to the size chart I'm a {size}, but the {product} {is} far too {tight}.",
        "I measured twice before ordering the {product}, and the {size} is still way too {tight}.",
    ),
    (
        "I placed order {order} on {date} and tried to cancel it within the hour, but the "
        "website keeps showing an error.",
        "I need to cancel my order for the {product}, but the cancel option is greyed out.",
        "I ordered the {product} by mistake and the system won't let me cancel the order, even "
        "though it hasn't shipped.",
        "I tried to cancel order {order} right after placing it and got a message saying the "
        "order can't be changed.",
        "The cancellation page says my {product} order is not eligible, and I don't understand "
        "why.",
        "I found the {product} cheaper elsewhere and want to cancel order {order}, but the "
        "cancel link does nothing.",
    ),
    (
        "My order {order} with the {product} was supposed to arrive days ago and the tracking "
        "hasn't moved.",
        "I ordered the {product} on {date} and {it} still {has}n't arrived.",
        'The tracking for my {product} has said "in transit" for over a week now.',
        "My package with the {product} is late and I needed {it} for {occasion}.",
        "Order {order} shows as shipped, but nothing has arrived and the carrier has no updates.",
        "The delivery date for the {product} has been pushed back three times already.",
    ),
    (
        "My {product} stopped working properly and the warranty form on your site keeps "
        "failing when I submit it.",
        "I'm trying to file a warranty claim for the {product} I bought on {date}, but I "
        "never get a confirmation.",
        "The {product} developed a fault ({defect}) and I'd like to use the warranty.",
        "I submitted a warranty claim for my {product} two weeks ago and haven't heard anything.",
        "The warranty page asks for a serial number I can't find on my {product}.",
        "After a few weeks of normal use, {defect} on my {product}, and the warranty portal "
        "won't accept my order number.",
    ),
    (
        "The {product} I received {is} defective: {defect}.",
        "After only a couple of uses, {defect} on my {product}.",
        "I opened the {product} from order {order} and {defect}.",
        "My new {product} {is} faulty; {defect}.",
        "Unfortunately {defect} on the {product} I ordered on {date}.",
        "I've barely used the {product} and {defect}.",
    ),
    (
        "I bought the {product} on {date} and I'm not sure whether I can still return {it}.",
        "I want to return the {product}, but the return policy on your site is confusing.",
        "Could you explain how returns work for the {product}? I've only tried {it} on indoors.",
        "I'd like to return the {product} from order {order}, but I no longer have the box.",
        "The {product} {is}n't what I expected and I'd like to know my return options.",
        "Your site says one thing about returns and the packing slip says another; which "
        "applies to my {product}?",
    ),
    (
        "I used a promo code when I ordered the {product}, but I was charged the full price.",
        "My order {order} should have had the discount applied, but my card was charged "
        "{amount} for the {product}.",
        "The promotional code {promo} showed as accepted at checkout, yet the final charge for "
        "the {product} didn't include it.",
        "I was overcharged on order {order}; the sale price for the {product} wasn't applied.",
        "The receipt for my {product} shows no discount even though the code {promo} was valid.",
        "I was charged {amount} for the {product}, which is the price before the {promo} discount.",
    ),
    (
        "I've been trying to buy the {product} in a {size}, but {it_is} always out of stock.",
        "Every time I try to check out with the {product}, I get an error that {it_is} "
        "unavailable.",
        "The {product} shows as available, but checkout fails at the last step.",
        "I wanted to order another {product} like the one from order {order}, but {it_is} gone "
        "from the site.",
        "The {product} in my size has been unavailable for weeks.",
        "My cart keeps removing the {product} right before I pay.",
    ),
    (
        "I tried to use my loyalty points on my last order, but they weren't applied.",
        "The points from order {order} never showed up in my account.",
        "At checkout my loyalty points balance shows zero, but I had {points} points last month.",
        "I redeemed points toward the {product}, but I was charged the full amount.",
        "My loyalty points didn't go through when I ordered the {product} on {date}.",
        "I should have earned points for the {product}, but my balance hasn't changed.",
    ),
)
# A personal detail some customers add.
DETAILS = (
    "This was meant to be a gift for my {relative}.",
    "I've been a customer for years and this has never happened before.",
    "I need this sorted before {occasion}.",
    "I've attached a photo.",
    "I already checked with my neighbors and the front desk.",
    "I'd rather not wait weeks for this.",
    "I'm pretty disappointed, to be honest.",
    "",
    "",
    "",
)
RELATIVES = (
    "friend",
    "partner",
    "teammate",
    "roommate",
    "running buddy",
    "kid",
    "son",
    "daughter",
    "wife",
    "husband",
    "brother",
    "sister",
    "dad",
    "mom",
    "coach",
    "niece",
)
RELATIVE_NAMES = (  # names that fit any relative
    "Sam", "Alex", "Jordan", "Taylor", "Casey", "Riley", "Jamie", "Morgan", "Charlie", "Robin",
    "Drew", "Quinn", "Avery", "Parker", "Rowan", "Sage", "Skyler", "Kai", "Reese", "Emerson",
)  # fmt: skip
PROMOS = (
    "SPRING20",
    "SAVE15",
    "WELCOME10",
    "BFRIDAY30",
    "HOLIDAY25",
    "FREESHIP",
    "SUMMER15",
    "RUN10",
    "TEAM20",
    "NEWYEAR20",
)
WRONG_ITEMS = (
    "a pair of socks",
    "a kids' jacket",
    "a yoga mat",
    "the same item in a different color",
    "a water bottle",
    "a men's tee",
    "a different model",
    "a pair of sandals",
    "a completely different shoe",
    "someone else's order",
    "the wrong size",
)
OCCASIONS = (
    "a race this weekend",
    "a trip next week",
    "my son's birthday",
    "the start of the season",
    "my team's first game",
    "the holidays",
    "a hiking trip",
    "a half marathon",
    "a tournament on Saturday",
)

OPENINGS = (
    "Hi,",
    "Hello,",
    "Hi there,",
    "Good morning,",
    "Hello support team,",
    "Hi {company} team,",
    "Dear Customer Care,",
    "",
)
ASKS = (
    "Please let me know how we can fix this.",
    "What are my options?",
    "I'd like this resolved as soon as possible.",
    "Can you help me sort this out?",
    "How do I get this fixed?",
    "Please advise on next steps.",
    "I'd appreciate a quick response.",
    "Thanks for looking into it.",
)
CUSTOMER_SIGNOFFS = (
    "Thanks,\n{first}",
    "Thank you,\n{first}",
    "Best,\n{first}",
    "Regards,\n{first}",
    "Thanks in advance,\n{first}",
    "{first}",
)

# -------------------------------------------------------------------- agent side
ACKS = (
    "Thank you for reaching out, and I'm sorry about the trouble with your {product}.",
    "Thanks for contacting {company}. I'm sorry to hear about your {product}.",
    "I apologize for the inconvenience with order {order}; I'm looking into it now.",
    "Thank you for your message. I understand how frustrating this must be.",
    "I'm sorry your experience with the {product} hasn't been what you expected.",
)
# What the agent asks for, per issue, and how the customer answers.
INFO_REQUESTS: tuple[tuple[str, ...], ...] = (
    (
        "Could you send me a photo of the item you received and its label?",
        "Could you reply with a photo of the packing slip and the item inside?",
    ),
    (
        "Could you tell me the size you usually wear and the measurements you used?",
        "Could you send me the size on the label and how the {short} fit{s}?",
    ),
    (
        "Could you confirm the order number and the time you tried to cancel?",
        "Could you share a screenshot of the message you got when you tried to cancel?",
    ),
    (
        "Could you confirm the shipping address on the order?",
        "Could you let me know the last tracking update you can see?",
    ),
    (
        "Could you send me a photo of the fault and the proof of purchase?",
        "Could you describe what happens when you use the {short}, and attach a photo?",
    ),
    (
        "Could you send a photo of the defect so I can log it with our quality team?",
        "Could you attach a couple of photos showing the problem?",
    ),
    (
        "Could you tell me whether the {short} {has} been worn or washed?",
        "Could you confirm the order number so I can check the return window?",
    ),
    (
        "Could you confirm the promotional code you used and attach a screenshot of checkout?",
        "Could you send me the last four digits of the card that was charged?",
    ),
    (
        "Could you tell me which size and color you're trying to buy?",
        "Could you send me a screenshot of the error at checkout?",
    ),
    (
        "Could you confirm the e-mail address on your loyalty account?",
        "Could you tell me roughly how many points you expected to see?",
    ),
)
INFO_REPLIES: tuple[tuple[str, ...], ...] = (
    (
        "Sure, photos attached. The label says {wrong}, not the {product}.",
        "Here you go, packing slip and item photos attached.",
    ),
    (
        "I'm usually a {size}, and I used the chart on the product page.",
        "The label says {size}. {It} fit{s} like a {other}.",
    ),
    (
        "It was order {order}; I tried to cancel about twenty minutes after ordering.",
        "Screenshot attached. It just says the order can't be changed.",
    ),
    (
        "The address is correct; it's the one on my account.",
        "The last update was from the carrier's hub, over a week ago.",
    ),
    ("Photos and my receipt from {date} are attached.", "I've attached a photo. {defect_cap}."),
    ("Photos attached. {defect_cap}.", "Attached. You can see the problem clearly."),
    ("Only tried on at home, tags still attached.", "It's order {order}, from {date}."),
    (
        "The code was {promo}. Screenshot of the checkout attached.",
        "It was the card ending in {card}.",
    ),
    (
        "A {size} in the color shown on the product page.",
        "Screenshot attached. It fails at the payment step.",
    ),
    ("It's this e-mail address.", "About {points} points."),
)
# The agent's understanding of the situation, said before the offer.
EMPATHY: tuple[tuple[str, ...], ...] = (
    (
        "I'm sorry we sent the wrong item; that's a mistake on our side.",
        "Thanks for the photos. I can confirm the warehouse shipped the wrong item.",
    ),
    (
        "Thanks for the details. I'm sorry the {short} didn't fit as the chart suggested.",
        "I understand: sizing on this line can run {direction}.",
    ),
    (
        "I've checked the order and the cancellation window had already closed in our system.",
        "I'm sorry the cancellation didn't go through on the website.",
    ),
    (
        "I've contacted the carrier and I'm sorry for the delay with your parcel.",
        "I checked with our shipping team and the parcel is held up at the carrier's hub.",
    ),
    (
        "Thanks for the photos and the receipt. I've reviewed your warranty claim.",
        "I'm sorry the warranty form gave you trouble; I've logged the claim for you.",
    ),
    (
        "I'm sorry the {short} {was} defective. Thanks for the photos.",
        "I've reviewed the photos and this is clearly a manufacturing fault.",
    ),
    (
        "I've checked the order and the return window.",
        "Thanks for checking. Let me explain the options for your order.",
    ),
    (
        "I can see the code {promo} should have applied to this order.",
        "You're right, the discount was not applied at checkout.",
    ),
    (
        "I'm sorry the {short} {is} not available right now.",
        "Unfortunately that size is out of stock at the moment.",
    ),
    (
        "I can see the points didn't post correctly to your account.",
        "I've looked into your loyalty account and found the problem.",
    ),
)
OFFERS: dict[str, tuple[str, ...]] = {
    "Full Refund": (
        "I can offer you a Full Refund of {amount} to your original payment method.",
        "I've approved a Full Refund for the {product}; you'll see {amount} back on your "
        "card within 5 to 7 business days.",
        "The best option here is a Full Refund, and I can process that for you today.",
    ),
    "Partial Refund": (
        "I can issue a Partial Refund for the difference you were overcharged.",
        "I've arranged a Partial Refund on the {product} to make up for this.",
        "What I can do is a Partial Refund of part of the {amount} you paid.",
    ),
    "Replacement": (
        "I can send you a Replacement for the {short} at no extra cost.",
        "I'll arrange a Replacement for the {product} right away; it ships free of charge.",
        "The quickest fix is a Replacement, and I can get a new one out to you today.",
    ),
    "Store Credit": (
        "I can offer you Store Credit for the full {amount}, which you can use on anything "
        "in our store.",
        "I've issued Store Credit to your account for the {product}.",
        "Would Store Credit work for you? I can add {amount} to your account right now.",
    ),
    "Discount Code": (
        "I can send you a Discount Code for 15% off your next order.",
        "As an apology, here is a Discount Code you can use on your next purchase.",
        "I'd like to offer you a Discount Code for your next order to make up for this.",
    ),
    "Loyalty Points Credit": (
        "I've added a Loyalty Points Credit to your account as an apology.",
        "I can offer you a Loyalty Points Credit of 500 points, which never expire.",
        "To make up for this, I've applied a Loyalty Points Credit to your rewards balance.",
    ),
    "Free Shipping on Next Order": (
        "I can offer you Free Shipping on Next Order as a thank-you for your patience.",
        "I've set up Free Shipping on Next Order for your account.",
        "Your next order will have free shipping: I've added Free Shipping on Next Order "
        "to your account.",
    ),
    "Extended Warranty": (
        "I can offer you an Extended Warranty on the {product} to cover this.",
        "I've added an Extended Warranty to your {product}, so you're covered for a full year.",
        "What I can do is register an Extended Warranty for the {product}.",
    ),
}
IN_WINDOW = (
    "Since you're still within the policy window, ",
    "Good news: your order qualifies, so ",
    "",
    "",
    "",
)
ACCEPTS = (
    "That works for me, thank you.",
    "Yes, please go ahead with that.",
    "Okay, that sounds fair. How long will it take?",
    "Great, thanks for the quick help.",
    "That's fine. Do I need to do anything else?",
    "Thank you, I'll take that option.",
)
CONFIRMS = (
    "All done: you'll receive a confirmation e-mail shortly.",
    "I've processed everything on my end. You'll get a confirmation within a few minutes.",
    "That's been processed. Is there anything else I can help you with?",
    "Done! You should see the update in your account within 24 hours.",
)
THANKS = (
    "Thanks again for your help!",
    "Perfect, thank you so much.",
    "Got the confirmation, thanks.",
    "Appreciate it, have a good day.",
)
FINALS = (
    "You're very welcome. Have a great day!",
    "Happy to help. Enjoy the rest of your week!",
    "Glad I could help. Take care!",
)
AGENT_SIGNOFFS = (
    "Best regards,\n{agent}\nCustomer Care | {company}",
    "Kind regards,\n{agent}\n{company} Support",
    "Thanks,\n{agent}\nCustomer Care Team, {company}",
    "Warm regards,\n{agent}\n{company} Customer Care",
)

CHAT_GREETINGS = (
    "Hi {first}, thanks for contacting {company}. My name is {agent_first}. How can I help?",
    "Hello {first}! You're chatting with {agent_first} from {company}. What can I do for you?",
    "Hi {first}, {agent_first} here. How can I help you today?",
    "Welcome to {company} chat, {first}. I'm {agent_first}; what's going on?",
)
CHAT_DETAILS = (
    "Thanks for explaining. Could you confirm the order number for me?",
    "I'm sorry about that. Let me pull up your order. Can you confirm the order number?",
    "Got it. Can you confirm the order number so I can take a look?",
)
CHAT_LOOKUPS = (
    "Thanks, I can see order {order} from {date} with the {product}.",
    "I've found order {order}, placed on {date}. Let me check the options.",
    "Okay, I have order {order} in front of me now.",
)
CHAT_BYES = (
    "Thanks, bye!",
    "Great, thank you. Bye.",
    "Thanks for the help!",
    "That's all, thanks.",
)
CHAT_CLOSINGS = (
    "You're welcome, {first}. Have a great day!",
    "Thanks for chatting with us, {first}. Take care!",
    "Glad I could help. Enjoy your day!",
)


def with_lead(lead: str, sentence: str) -> str:
    """`lead` ("Since ..., ") followed by `sentence`, de-capitalised unless it starts with I."""
    if not lead:
        return sentence
    first = sentence.split(" ", 1)[0]
    if first != "I" and not first.startswith("I'"):
        sentence = sentence[:1].lower() + sentence[1:]
    return lead + sentence


def pick(r: random.Random, options: tuple[str, ...]) -> str:
    return options[r.randrange(len(options))]


def fill(template: str, slots: dict[str, str]) -> str:
    return template.format_map(slots)
