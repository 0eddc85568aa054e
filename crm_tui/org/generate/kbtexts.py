"""Knowledge article texts: the 10 issue policies and 35 product and service guides.

In the sentences, `{{...}}` marks a fact span: the text between the braces is written into
the article verbatim and is the answer of a question-answer pair (latent `ARTICLE_QA`).
`<<Type Noun>>` is replaced by the name of a generated product of that type.
"""

from __future__ import annotations

from typing import TypedDict


class Policy(TypedDict):
    """One issue's policy article, as written below."""

    issue: str  # Issue__c name
    phrase: str  # "an incorrect item"
    title: str
    summary: str
    resolutions: dict[str, int | None]  # resolution -> window in days (None: no limit)
    intro: str
    facts: list[tuple[str, str]]  # (sentence with a {{span}}, its question)


# A guide: title, summary, and its sentences with the question each span answers (or None).
Guide = tuple[str, str, list[tuple[str, str | None]]]

# Resolutions agents may offer, with a sentence describing each.
RESOLUTIONS: dict[str, str] = {
    "Full Refund": "the full purchase price goes back to the original payment method, "
    "usually within 5 to 7 business days",
    "Partial Refund": "the difference between the price charged and the correct price is "
    "refunded to the original payment method",
    "Replacement": "a new unit of the same product, size and color ships at no additional cost",
    "Store Credit": "credit for the purchase amount that can be spent on any product and "
    "stays valid for 90 days after issuance",
    "Discount Code": "a single-use code worth 15% off the customer's next order",
    "Loyalty Points Credit": "bonus loyalty points added to the customer's account, which "
    "never expire and can be redeemed against future purchases",
    "Free Shipping on Next Order": "standard shipping on the customer's next order is free",
    "Extended Warranty": "warranty coverage is extended to 365 days from the date of purchase",
}


# Issue__c name, short phrase, policy article title, summary, {resolution: window days or
# None}, intro sentence, extra fact sentences (with {{spans}}) and their questions.
POLICIES: tuple[Policy, ...] = (
    dict(
        issue="Incorrect Item Received",
        phrase="an incorrect item",
        title="How to Address Incorrect Items Received",
        summary="What to do when a customer receives a different product, size or color than "
        "ordered. Lists the allowed resolutions and their time limits.",
        resolutions={"Full Refund": 30, "Replacement": 60},
        intro="Occasionally a package contains a product, size or color the customer did not "
        "order. Our warehouse team treats these as picking errors, and the customer never "
        "pays to put it right.",
        facts=[
            (
                "To verify the error, ask for {{the order number, a description of the incorrect "
                "item and photos of the item and its label}}.",
                "What information is needed to verify an incorrect item?",
            ),
            (
                "Customers do not need to pay for the return: {{a prepaid return label is e-mailed "
                "within one business day}}.",
                "How does a customer return an incorrect item?",
            ),
        ],
    ),
    dict(
        issue="Size Mismatch",
        phrase="a size mismatch",
        title="Navigating Size Mismatches",
        summary="Resolutions for items whose fit does not match our size chart, and how to "
        "guide customers to the right size.",
        resolutions={"Replacement": 60, "Store Credit": 90, "Discount Code": 60},
        intro="Sizing can vary between product lines, and a customer who followed our size "
        "chart should not be left with something that does not fit.",
        facts=[
            (
                "Items must be {{unworn, in original condition, with all tags and packaging "
                "intact}} to be exchanged for another size.",
                "What condition must items be in to be exchanged for another size?",
            ),
            (
                "If the needed size is out of stock, the customer can {{wait for the restock, "
                "choose a different item, or take store credit}}.",
                "What can a customer do if the replacement size is out of stock?",
            ),
        ],
    ),
    dict(
        issue="Unable to Cancel Order",
        phrase="an order that could not be cancelled",
        title="How to Handle Order Cancellation Issues",
        summary="Cancellation windows, what happens when the website will not let a customer "
        "cancel, and which resolutions apply.",
        resolutions={"Full Refund": 30, "Store Credit": 90},
        intro="Orders can normally be cancelled online {{within the first 24 hours}} after "
        "they are placed, as long as they have not yet been handed to the carrier.",
        facts=[
            (
                "{{Custom and personalized items}} cannot be cancelled once production starts.",
                "Which items cannot be cancelled once production starts?",
            ),
            (
                "Customers can reach us about cancellations {{by phone, e-mail or live chat}}.",
                "How can customers reach customer service about a cancellation?",
            ),
        ],
    ),
    dict(
        issue="Shipping Delay",
        phrase="a delayed shipment",
        title="Addressing Shipping Delays",
        summary="How to keep customers informed when a parcel is late, and the goodwill "
        "resolutions agents may offer.",
        resolutions={
            "Loyalty Points Credit": None,
            "Store Credit": 90,
            "Free Shipping on Next Order": 180,
            "Discount Code": 60,
        },
        intro="Standard orders ship within two business days and usually arrive in {{3 to 7 "
        "business days}}. When a parcel is late, the customer hears from us before they "
        "have to ask.",
        facts=[
            (
                "A parcel counts as delayed when {{tracking has not updated for five business "
                "days}}.",
                "When does a parcel count as delayed?",
            ),
            (
                "If a parcel is lost, we {{reship the order at no cost}} once the carrier confirms "
                "the loss.",
                "What happens if the carrier confirms a parcel is lost?",
            ),
        ],
    ),
    dict(
        issue="Warranty Claim Issue",
        phrase="a warranty claim",
        title="Navigating Warranty Claims for Defective Equipment",
        summary="Warranty types, what a claim needs, and the resolutions available for "
        "equipment that fails in normal use.",
        resolutions={"Replacement": 60, "Extended Warranty": 365},
        intro="Every product carries a manufacturing warranty against defects in materials and "
        "workmanship. We offer {{a manufacturing warranty, an extended warranty and a "
        "limited lifetime warranty on selected equipment}}.",
        facts=[
            (
                "A claim needs {{proof of purchase, photos of the defect and the product "
                "details}}.",
                "What documentation is required to submit a warranty claim?",
            ),
            (
                "Customers receive an acknowledgment {{within 2 to 3 business days}} of submitting "
                "a claim.",
                "How long does it take to receive an acknowledgment after submitting a warranty "
                "claim?",
            ),
        ],
    ),
    dict(
        issue="Defective Product",
        phrase="a defective product",
        title="Addressing Product Defects",
        summary="Steps and resolutions for products that arrive damaged or fail because of a "
        "manufacturing fault.",
        resolutions={"Full Refund": 30, "Replacement": 60},
        intro="A product that arrives damaged, or fails because of a manufacturing fault, is "
        "our responsibility from the first day.",
        facts=[
            (
                "Replacements for defective items ship {{at no additional cost}}, including "
                "shipping.",
                "Is there a cost for a replacement of a defective item?",
            ),
            (
                "The steps are: {{contact customer service, return the defective product, wait "
                "for verification, and receive the replacement or refund}}.",
                "What are the steps of a claim for a defective product?",
            ),
        ],
    ),
    dict(
        issue="Return Policy Confusion",
        phrase="a return",
        title="Understanding Our Return Policy: Clear Solutions for Online Purchases",
        summary="Explains the return window, the condition items must be in, and the "
        "resolutions customers can choose for online purchases.",
        resolutions={"Full Refund": 30, "Store Credit": 90, "Replacement": 60},
        intro="We want returns to be simple. Most questions come from customers who are not "
        "sure whether an item still qualifies.",
        facts=[
            (
                "Shoes must be {{unused, unwashed and returned in their original box with all tags "
                "attached}}.",
                "What are the conditions for returning shoes?",
            ),
            (
                "To start a return online, {{log in, open Order History, select the order and "
                "click Return Items}}.",
                "How does a customer start a return for an online purchase?",
            ),
        ],
    ),
    dict(
        issue="Overcharged Despite Promo Code",
        phrase="an overcharge",
        title="Resolving Billing and Payment Issues: Overcharged Despite Promotional Codes",
        summary="What to do when a valid promotional code was not applied at checkout, and "
        "how to make the customer whole.",
        resolutions={"Full Refund": 30, "Partial Refund": 60, "Store Credit": 90},
        intro="A valid promotional code that did not apply at checkout is a billing error on "
        "our side, not the customer's.",
        facts=[
            (
                "Ask the customer for {{the promotional code, the order number and a screenshot "
                "of the checkout page}}.",
                "What should the customer provide when a promotional code was not applied?",
            ),
            (
                "Promotional codes {{cannot be combined with clearance prices}}.",
                "Can promotional codes be combined with clearance prices?",
            ),
        ],
    ),
    dict(
        issue="Item Unavailable for Purchase",
        phrase="an unavailable item",
        title="Ensuring Product Availability: What to Do When Items Are Out of Stock",
        summary="How to help customers who cannot buy an item because it is out of stock or "
        "will not go through checkout.",
        resolutions={
            "Loyalty Points Credit": None,
            "Store Credit": 90,
            "Free Shipping on Next Order": 180,
            "Discount Code": 60,
        },
        intro="Popular sizes and limited releases sell out quickly. Live chat is {{the best "
        "channel for quick questions about stock availability}}.",
        facts=[
            (
                "Customers can {{turn on back-in-stock alerts on the product page}} to hear when "
                "an item returns.",
                "How can customers learn when an item is back in stock?",
            ),
        ],
    ),
    dict(
        issue="Loyalty Points Redemption",
        phrase="a loyalty points problem",
        title="How to Redeem Loyalty Points for Discounts",
        summary="How loyalty points are earned and redeemed, and what agents can do when a "
        "redemption fails.",
        resolutions={"Loyalty Points Credit": None, "Store Credit": 90},
        intro="Members earn points {{on qualifying purchases and through special "
        "promotions}}, and {{loyalty points do not expire}}.",
        facts=[
            (
                "Points can be redeemed for {{discount vouchers, limited edition products and "
                "member experiences}}.",
                "What can loyalty points be redeemed for?",
            ),
            (
                "Customers should {{check their points balance before checkout}} so that a "
                "redemption does not fail.",
                "What should customers do so a redemption does not fail?",
            ),
        ],
    ),
)
# Questions for the {{spans}} of each policy's intro, in order.
INTRO_QUESTIONS: dict[str, list[str]] = {
    "Unable to Cancel Order": ["What is the usual window for cancelling an order online?"],
    "Shipping Delay": ["How long does standard delivery usually take?"],
    "Warranty Claim Issue": ["What types of warranties are offered?"],
    "Item Unavailable for Purchase": [
        "Which channel is best for quick questions about stock availability?"
    ],
    "Loyalty Points Redemption": ["How are loyalty points earned?", "Do loyalty points expire?"],
}


# The guides: (title, summary, [(sentence with {{span}} or plain sentence, question or None)])
GUIDES: tuple[Guide, ...] = (
    (
        "Caring for Your Swim Gear",
        "How to keep goggles, caps and suits working after hours in chlorinated water.",
        [
            (
                "Chlorine is hard on swim gear: the most common problem it causes is {{material wear "
                "and degradation}}.",
                "What common problem does chlorine cause on swim gear?",
            ),
            (
                "After every session, {{rinse the cap thoroughly with fresh water and let it dry}} to "
                "prevent mold or mildew.",
                "How should a swim cap be cared for after a session?",
            ),
            (
                "Replace goggles {{if the lenses are scratched or the straps lose elasticity}}.",
                "When should swim goggles be replaced?",
            ),
            ("Store suits flat in a ventilated bag, never rolled up wet in a towel.", None),
        ],
    ),
    (
        "Choosing and Maintaining Swim Goggles",
        "Fit, lens types and anti-fog care for lap and open-water swimmers.",
        [
            (
                "A good fit seals {{without the strap, when pressed gently against the eyes}}.",
                "How can you test the fit of swim goggles?",
            ),
            (
                "To keep the anti-fog coating working, {{rinse goggles with fresh water after each use "
                "and avoid touching the inside of the lenses}}.",
                "How do you keep the anti-fog feature of swim goggles working?",
            ),
            (
                "Mirrored lenses are best for {{bright outdoor and open-water swimming}}.",
                "When are mirrored goggle lenses best?",
            ),
        ],
    ),
    (
        "Training with Swim Fins and Kickboards",
        "How fins and kickboards build leg strength and technique.",
        [
            (
                "Swim fins help correct technique {{by making the swimmer keep their feet pointed}}.",
                "How do swim fins help correct swimming technique?",
            ),
            (
                "The main benefit of a kickboard is {{isolating the legs to improve kicking "
                "technique}}.",
                "What is the primary benefit of using a kickboard?",
            ),
            (
                "Short-blade fins are better than long ones for {{building leg strength while keeping "
                "a natural kick tempo}}.",
                "Why choose short-blade swim fins?",
            ),
        ],
    ),
    (
        "Yoga Mat Care and Cleaning",
        "Keep your mat grippy, hygienic and long-lasting.",
        [
            (
                "Our yoga mats are made from {{natural tree rubber and other sustainable materials}}.",
                "What are the yoga mats made from?",
            ),
            (
                "After practice, {{wipe the mat with a damp cloth and a mild soap solution}}.",
                "How should a yoga mat be cleaned after practice?",
            ),
            (
                "To store a mat, {{let it air dry completely and keep it out of direct sunlight}}.",
                "How should a yoga mat be stored?",
            ),
        ],
    ),
    (
        "Getting the Most from Yoga Blocks and Straps",
        "Using and caring for the props that deepen your practice.",
        [
            ("Our yoga blocks are made of {{recycled cork}}.", "What are the yoga blocks made of?"),
            (
                "The yoga strap adjusts its length with {{sturdy D-rings}}.",
                "What feature adjusts the length of the yoga strap?",
            ),
            (
                "Wash cotton straps {{in cold water with a mild detergent and air dry them}}.",
                "How should yoga straps be washed?",
            ),
            (
                "Wipe blocks {{with a damp cloth, or a mix of water and mild vinegar for deeper "
                "cleaning}}.",
                "How should yoga blocks be cleaned?",
            ),
        ],
    ),
    (
        "Washing Moisture-Wicking Apparel",
        "Keep performance fabrics wicking sweat season after season.",
        [
            (
                "Our athletic wear manages sweat with {{advanced moisture-wicking fabrics}}.",
                "What technology manages sweat in the athletic wear?",
            ),
            (
                "Never use {{fabric softeners}}, which clog the fibers and stop them wicking.",
                "What should be avoided when washing moisture-wicking apparel?",
            ),
            (
                "Wash {{in cold water with a mild detergent, then air dry or tumble dry on low}}.",
                "How should moisture-wicking apparel be washed?",
            ),
        ],
    ),
    (
        "Sports Bra Fit Guide",
        "Find the right support level and fit for your activity.",
        [
            (
                "Choose {{high-support bras for running and high-impact training}} and medium support "
                "for cycling or the gym.",
                "Which sports bras suit running and high-impact training?",
            ),
            (
                "A bra fits when {{the underband stays level and two fingers fit under the straps}}.",
                "How can you tell that a sports bra fits?",
            ),
            (
                "Replace sports bras {{every six to twelve months of regular use}}.",
                "How often should sports bras be replaced?",
            ),
        ],
    ),
    (
        "Trail Running Shoe Care",
        "Clean, dry and store trail shoes so they grip for longer.",
        [
            (
                "{{Clean them after each run and let them air dry naturally}} to keep the uppers and "
                "glue intact.",
                "What is essential for trail running shoe maintenance?",
            ),
            (
                "Never dry shoes with {{heat sources like a dryer or a radiator}}.",
                "What should you avoid using to dry trail running shoes?",
            ),
            (
                "Stuff wet shoes with {{newspaper to draw out moisture}}.",
                "How can you help wet trail shoes dry?",
            ),
        ],
    ),
    (
        "When to Replace Your Running Shoes",
        "Signs your running shoes have lost their cushioning.",
        [
            (
                "Replace running shoes {{every 300 to 500 miles}}.",
                "How often should running shoes be replaced?",
            ),
            (
                "Replacing them on time matters {{to keep adequate support and prevent injuries}}.",
                "Why is it important to replace running shoes on time?",
            ),
            (
                "Worn-down sneakers can regain cushioning by {{replacing the original insoles with "
                "cushioned ones}}.",
                "How can cushioning be improved in worn sneakers?",
            ),
        ],
    ),
    (
        "Preventing Blisters and Chafing",
        "Simple gear choices that keep long runs comfortable.",
        [
            (
                "To reduce chafing and blisters, use {{anti-chafing balm, seamless moisture-wicking "
                "clothing and padded running socks}}.",
                "What helps reduce the risk of chafing and blisters?",
            ),
            (
                "Break in new shoes {{gradually over two or three short runs}}.",
                "How should new running shoes be broken in?",
            ),
            (
                "Tape hot spots {{before the run, not after a blister forms}}.",
                "When should hot spots be taped?",
            ),
        ],
    ),
    (
        "Trail Running Essentials",
        "Hydration, layers and safety on the trail.",
        [
            (
                "To prevent dehydration, {{carry a hydration pack and drink small amounts "
                "regularly}}.",
                "How can you prevent dehydration during trail runs?",
            ),
            (
                "Extra comfort comes from {{moisture-wicking apparel, a hat and sunglasses}}.",
                "What additional gear can make trail runs more comfortable?",
            ),
            (
                "Clean hydration packs {{with warm soapy water and let them dry completely}}.",
                "How should hydration packs be cleaned?",
            ),
        ],
    ),
    (
        "Soccer Cleat Fit and Break-In",
        "Choosing the right stud pattern and breaking in new boots.",
        [
            (
                "Firm-ground cleats are made for {{natural grass and artificial turf}}.",
                "What surfaces are firm-ground soccer cleats made for?",
            ),
            (
                "Prevent blisters from new cleats by {{wearing seamless socks and breaking them in "
                "gradually}}.",
                "How can you prevent blisters from new soccer cleats?",
            ),
            (
                "After each match, {{brush off the dirt and let the cleats air dry naturally}}.",
                "How should soccer cleats be cared for after a match?",
            ),
        ],
    ),
    (
        "Goalkeeper Glove Care",
        "Keep latex palms grippy for longer.",
        [
            (
                "Rinse gloves {{in lukewarm water and avoid harsh detergents}} to maintain grip.",
                "How should goalkeeper gloves be cleaned?",
            ),
            (
                "Dampen latex palms {{before every match}} for the best grip.",
                "When should latex goalkeeper palms be dampened?",
            ),
            (
                "Store gloves {{palm to palm, away from direct sunlight}}.",
                "How should goalkeeper gloves be stored?",
            ),
        ],
    ),
    (
        "Basketball Shoes: Fit and Traction",
        "Getting lockdown and grip on the court.",
        [
            (
                "A herringbone outsole gives {{grip for quick stops and cuts}}.",
                "What does a herringbone outsole give basketball shoes?",
            ),
            (
                "Keep traction by {{wiping the outsoles with a damp cloth before games}}.",
                "How can you keep basketball shoes grippy?",
            ),
            (
                "If basketball shoes do not fit, {{exchange them for a different size within 30 days "
                "of purchase}}.",
                "What can you do if basketball shoes do not fit?",
            ),
        ],
    ),
    (
        "Golf Club Care",
        "Clean grips and clubfaces, and protect clubs in transit.",
        [
            (
                "Clean grips {{with mild soap and water, then dry them thoroughly}}.",
                "How should golf club grips be cleaned?",
            ),
            (
                "Protect clubs during transport with {{headcovers}}.",
                "What protects golf clubs during transportation?",
            ),
            (
                "To keep a driver performing, {{check its adjustment settings and keep the clubface "
                "free of debris}}.",
                "How can you maintain a golf driver's performance?",
            ),
        ],
    ),
    (
        "Choosing a Putter",
        "Match the putter head to your stroke.",
        [
            (
                "For a straight-back-straight-through stroke, choose {{a face-balanced mallet "
                "putter}}.",
                "Which putter suits a straight-back-straight-through stroke?",
            ),
            (
                "Golfers with an arcing stroke usually prefer {{a toe-hang blade putter}}.",
                "Which putter suits an arcing stroke?",
            ),
            (
                "Putter length should let {{your eyes sit directly over the ball at address}}.",
                "How should putter length be chosen?",
            ),
        ],
    ),
    (
        "Caring for Golf Shoes and Gloves",
        "Keep waterproofing and grip in good shape.",
        [
            (
                "Our golf shoes combine {{a spikeless outsole with waterproof materials}}.",
                "What technology features do the golf shoes have?",
            ),
            (
                "Let a damp glove dry {{flat and away from heat, so the leather does not stiffen}}.",
                "How should a damp golf glove be dried?",
            ),
            (
                "Re-treat leather golf shoes {{with a waterproofing conditioner every few months}}.",
                "How often should leather golf shoes be re-treated?",
            ),
        ],
    ),
    (
        "Cycling Helmet Fit and Safety",
        "Fit your helmet correctly and know when to replace it.",
        [
            (
                "For protection and comfort, choose {{a lightweight, well-ventilated helmet with "
                "adjustable straps and padding}}.",
                "What matters most in a cycling helmet?",
            ),
            (
                "Replace a helmet {{after any crash, even without visible damage}}.",
                "When must a cycling helmet be replaced?",
            ),
            (
                "The helmet should sit {{level, about two fingers above the eyebrows}}.",
                "Where should a cycling helmet sit?",
            ),
        ],
    ),
    (
        "Cycling Shoe and Apparel Care",
        "Fresh shoes and long-lasting kit.",
        [
            (
                "To prevent odor, {{remove mud, wash the insoles and let the shoes air out}}.",
                "How should cycling shoes be maintained to prevent odor?",
            ),
            (
                "Our cycling jerseys manage moisture with {{Dri-Fit style wicking fabric}}.",
                "Which fabric do the cycling jerseys use for moisture management?",
            ),
            (
                "Wash padded shorts {{after every ride, inside out, on a cold cycle}}.",
                "How should padded bike shorts be washed?",
            ),
        ],
    ),
    (
        "Fixing Fitness Tracker Syncing Problems",
        "Step-by-step help when a tracker will not sync with the phone app.",
        [
            (
                "To fix syncing, {{make sure Bluetooth is on, update the firmware and app, and "
                "restart both the device and the app}}.",
                "How can you fix syncing issues between a fitness tracker and a smartphone?",
            ),
            (
                "If syncing still fails, {{remove the tracker from the phone's Bluetooth list and pair "
                "it again}}.",
                "What should you do if syncing still fails?",
            ),
            (
                "Trackers keep {{seven days of data}} while they are not synced.",
                "How many days of data does a tracker keep when not synced?",
            ),
        ],
    ),
    (
        "Getting Accurate Data from Your <<Fitness Tracker>>",
        "Wear, settings and modes that make readings more reliable.",
        [
            (
                "The <<Fitness Tracker>> offers {{continuous heart-rate monitoring, sleep tracking and "
                "smartphone notifications}}.",
                "What are the main features of the <<Fitness Tracker>>?",
            ),
            (
                "Wear the tracker {{snugly, a finger's width above the wrist bone}}.",
                "Where should a fitness tracker be worn for accurate readings?",
            ),
            (
                "Keep your {{height, weight and age up to date in the app}} so calorie estimates stay "
                "accurate.",
                "What should be kept up to date in the app for accurate calorie estimates?",
            ),
        ],
    ),
    (
        "Maximizing Battery Life on Wearables",
        "Settings that stretch the time between charges.",
        [
            (
                "To extend battery life, {{turn off non-essential notifications, lower the screen "
                "brightness and use power-saving mode}}.",
                "How can you maximize the battery life of a fitness wearable?",
            ),
            (
                "Avoid {{leaving the device on the charger for days at a time}}.",
                "What charging habit should be avoided?",
            ),
            (
                "The always-on display {{can halve the battery life}}.",
                "How much can the always-on display reduce battery life?",
            ),
        ],
    ),
    (
        "GPS Accuracy on the <<GPS Running Watch>>",
        "Why GPS tracks wander and how to get a clean signal.",
        [
            (
                "The <<GPS Running Watch>> uses {{multi-satellite GPS tracking}} to record pace and "
                "distance.",
                "What tracking technology does the <<GPS Running Watch>> use?",
            ),
            (
                "Before a run, {{wait in an open area until the watch confirms a satellite lock}}.",
                "What should you do before a run to get accurate GPS data?",
            ),
            (
                "Tall buildings and dense trees can {{add up to 3% error to the measured distance}}.",
                "How much error can tall buildings or trees add to GPS distance?",
            ),
        ],
    ),
    (
        "Exploring with the <<Smart Outdoor Watch>>",
        "Navigation and weather features for the backcountry.",
        [
            (
                "The <<Smart Outdoor Watch>> connects to {{GPS, GLONASS and Galileo satellites}} for "
                "precise location tracking.",
                "Which satellite systems does the <<Smart Outdoor Watch>> connect to?",
            ),
            (
                "Its storm alert {{warns you when barometric pressure drops quickly}}.",
                "What does the storm alert of the <<Smart Outdoor Watch>> do?",
            ),
            (
                "Calibrate the altimeter {{at a known elevation before each trip}}.",
                "When should the altimeter be calibrated?",
            ),
        ],
    ),
    (
        "Smart Hydration Bottle Quick Start",
        "Pair, fill and clean your smart bottle.",
        [
            (
                "The bottle reminds you to drink with {{an LED indicator that glows when it is time for "
                "a sip}}.",
                "How does the smart hydration bottle remind you to drink?",
            ),
            (
                "Hand wash the bottle; {{the smart cap is not dishwasher safe}}.",
                "Is the smart cap of the hydration bottle dishwasher safe?",
            ),
            (
                "Charge the cap {{about once every two weeks}}.",
                "How often does the smart bottle cap need charging?",
            ),
        ],
    ),
    (
        "Caring for Insulated and Down Jackets",
        "Wash and dry insulation without losing warmth.",
        [
            (
                "Our insulated jackets use {{advanced synthetic fibers}} that stay warm when damp.",
                "What insulation do the insulated jackets use?",
            ),
            (
                "Wash insulated jackets {{with a mild detergent and dry them on low heat}}, without "
                "fabric softeners.",
                "How should insulated jackets be washed?",
            ),
            (
                "Add {{two clean tennis balls}} to the dryer to restore the loft of down.",
                "What can be added to the dryer to restore the loft of down?",
            ),
        ],
    ),
    (
        "Restoring Water Repellency on Rain Gear",
        "Bring back the beading on jackets and pants.",
        [
            (
                "Restore the water-repellent finish with {{a DWR (durable water repellent) spray}}.",
                "How can you restore the water-repellent finish on a jacket?",
            ),
            (
                "Wash rain jackets {{on a gentle, cold-water cycle with a mild detergent}}.",
                "How should rain jackets be washed?",
            ),
            (
                "Avoid {{bleach and fabric softeners}}, which break down the membrane.",
                "What should be avoided when washing rain gear?",
            ),
        ],
    ),
    (
        "Hiking Boot Break-In and Care",
        "From first walk to resoling.",
        [
            (
                "Break in new boots {{with short walks over one to two weeks}} before a long trek.",
                "How should new hiking boots be broken in?",
            ),
            (
                "Condition leather boots {{every few months with a leather conditioner}}.",
                "How often should leather hiking boots be conditioned?",
            ),
            (
                "Remove the insoles {{after wet hikes so both parts dry faster}}.",
                "What should you do with the insoles after a wet hike?",
            ),
        ],
    ),
    (
        "Sneaker Care: Leather and Canvas",
        "Keep everyday sneakers looking new.",
        [
            (
                "For leather sneakers, use {{a specialized leather cleaner and conditioner}}.",
                "What is recommended for cleaning leather sneakers?",
            ),
            (
                "Clean canvas sneakers {{by hand with cold water and a soft brush}}, not in the "
                "washing machine.",
                "How should canvas sneakers be cleaned?",
            ),
            (
                "Preserving comfort and looks starts with {{regular, proper maintenance}}.",
                "What is essential for preserving the comfort and longevity of sneakers?",
            ),
        ],
    ),
    (
        "Finding Your Sneaker Size",
        "Use our size guides to get the fit right the first time.",
        [
            (
                "For a good fit, {{use the size guide, try them on with your usual socks and walk "
                "around}}.",
                "How can you make sure lifestyle sneakers fit well?",
            ),
            (
                "Measure your feet {{in the evening, when they are at their largest}}.",
                "When should you measure your feet?",
            ),
            (
                "Accurate size charts are {{on every product page of our website}}.",
                "Where can you find accurate size charts?",
            ),
        ],
    ),
    (
        "Strength Equipment Care",
        "Looking after resistance bands, kettlebells and dumbbells.",
        [
            (
                "Clean resistance bands {{with a damp cloth and mild soap, then let them dry "
                "fully}}.",
                "How should resistance bands be cleaned?",
            ),
            (
                "Store bands {{away from sunlight and sharp edges}} to prevent cracking.",
                "How should resistance bands be stored?",
            ),
            (
                "Wipe kettlebell handles {{after each session to stop rust forming}}.",
                "Why should kettlebell handles be wiped after each session?",
            ),
        ],
    ),
    (
        "Jump Rope Training and Care",
        "Speed rope technique and maintenance.",
        [
            (
                "Check speed ropes regularly for {{fraying cables and dry bearings}}.",
                "What should you check regularly on a speed rope?",
            ),
            (
                "Size a rope so {{the handles reach your armpits when you stand on the middle}}.",
                "How do you size a jump rope?",
            ),
            (
                "Jump on {{wood, rubber or a jump mat}} rather than concrete to protect the cable.",
                "Which surfaces are best for jumping rope?",
            ),
        ],
    ),
    (
        "Foam Rolling for Recovery",
        "How and when to roll for faster recovery.",
        [
            (
                "Roll each muscle group {{for 30 to 60 seconds}}.",
                "How long should each muscle group be rolled?",
            ),
            (
                "Foam rolling after a run helps {{loosen tight muscles and improve blood flow}}.",
                "Why roll after a run?",
            ),
            (
                "Avoid rolling {{directly over joints or the lower back}}.",
                "What should you avoid rolling over?",
            ),
        ],
    ),
    (
        "Choosing a Customer Service Channel: Phone, E-mail and Live Chat",
        "Which channel suits which kind of request, and our service hours.",
        [
            (
                "Phone support is best for {{complex or urgent issues that need real-time, personal "
                "help}}.",
                "What is phone support best for?",
            ),
            (
                "E-mail suits {{questions about product details, return labels, invoices and warranty "
                "information}}.",
                "What kind of inquiries is e-mail support most suitable for?",
            ),
            (
                "Live chat is open {{from 8 a.m. to 10 p.m. Eastern, seven days a week}}.",
                "When is live chat open?",
            ),
        ],
    ),
    (
        "Tracking Your Order",
        "Where to find tracking details and what each status means.",
        [
            (
                "Tracking links are sent {{by e-mail as soon as the parcel leaves our warehouse}}.",
                "When are tracking links sent?",
            ),
            (
                "An order marked Activated has been {{confirmed and sent to the warehouse for "
                "picking}}.",
                "What does the Activated order status mean?",
            ),
            (
                "Delivery to Alaska and Hawaii takes {{up to 10 business days}}.",
                "How long does delivery to Alaska and Hawaii take?",
            ),
        ],
    ),
)
