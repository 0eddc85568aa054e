"""Defects a customer can report, chosen per product type, never per product family alone.

A defect names a part the product has: no "the handle came loose" on a cycling helmet, no
"losing air" on resistance bands. Footwear and apparel share most defects within their
kind, narrowed by the type's noun (a zipper only on what has one); equipment, accessories
and electronics list theirs per type. Slots: {they} it/they (subject), {it} it/them
(object), {s} the verb ending, {has}, {is}.
"""

from __future__ import annotations

from crm_tui.org.generate.assortment import APPAREL, FOOTWEAR, ProductType

SHOE = (
    "the sole is separating from the upper",
    "the stitching on the heel came apart",
    "the midsole has a visible crack",
    "one of the eyelets ripped out",
    "the insole is glued in crooked",
    "the outsole is peeling at the toe",
    "the heel counter collapsed on one side",
    "the upper tore along the flex line",
    "the tongue padding split open",
    "the lace loops broke off",
)
CLEAT = ("two of the studs snapped off", "the soleplate cracked at the forefoot")
GARMENT = (
    "a seam split after the first wash",
    "there is a hole near the hem",
    "the fabric is already pilling badly",
    "the print is peeling off",
    "the color bled onto everything else in the wash",
    "the stitching is coming undone at the shoulder",
    "the fabric shrank a full size after one wash",
    "there's a pulled thread running down the front",
)
# (words of the noun, defects only garments with those words have)
GARMENT_PARTS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (
        ("Jacket", "Vest", "Pullover"),
        ("the zipper broke on the first day", "the zipper pull snapped off"),
    ),
    (
        ("Leggings", "Tights", "Shorts", "Joggers", "Pants", "Skort", "Jammers"),
        ("the waistband elastic snapped", "the drawcord pulled out of the waistband"),
    ),
    (("Rain", "Insulated", "Softshell"), ("the seams leak in the rain",)),
    (("Down",), ("the down is leaking out of the seams",)),
    (("Bra",), ("one of the straps snapped", "the clasp at the back broke")),
    (("Padded",), ("the chamois padding came unglued",)),
)
BY_TYPE: dict[str, tuple[str, ...]] = {
    "Running Socks": ("a hole wore through at the heel", "the cuff elastic went slack"),
    "Swim Goggles": (
        "the strap snapped",
        "one lens came out of the frame",
        "{they} fog{s} up and leak{s} within minutes",
        "the nose bridge cracked",
    ),
    "Swim Cap": ("{they} tore the first time I put {it} on", "the silicone split at the edge"),
    "Swim Fins": ("the foot pocket split", "one blade cracked near the heel"),
    "Kickboard": ("the foam is crumbling at the edges", "{they} cracked down the middle"),
    "Yoga Mat": (
        "the surface is flaking off",
        "{they} tore at a corner after two sessions",
        "{they} still smell{s} strongly of rubber",
    ),
    "Yoga Block": ("{they} arrived dented", "the foam is crumbling at the corners"),
    "Yoga Strap": ("the buckle broke off", "the stitching at the loop unraveled"),
    "Pilates Ring": ("one of the padded grips came off", "the ring cracked on one side"),
    "Soccer Ball": (
        "{they} started losing air",
        "a panel is coming unstitched",
        "{they} arrived lopsided",
    ),
    "Goalkeeper Gloves": ("the palm latex peeled off", "the wrist strap tore"),
    "Shin Guards": ("the shell cracked", "the ankle strap snapped"),
    "Basketball": (
        "{they} won't hold air",
        "the grip surface is peeling",
        "{they} bounce{s} unevenly",
    ),
    "Golf Driver": ("the clubhead came loose from the shaft", "the grip is split"),
    "Golf Putter": ("the grip came loose", "the face has a deep scratch out of the box"),
    "Golf Glove": ("the seam at the thumb split", "the closure tab tore off"),
    "Golf Stand Bag": (
        "one of the legs won't fold out",
        "the shoulder strap snapped",
        "the zipper on the side pocket broke",
    ),
    "Cycling Helmet": (
        "the chin strap buckle broke",
        "the shell arrived cracked",
        "the fit dial stopped tightening",
    ),
    "Reflective Vest": ("the reflective strips are peeling off", "the side closure broke"),
    "Fitness Tracker": (
        "{they} won't hold a charge",
        "the screen stays blank",
        "the band snapped at the clasp",
        "{they} stopped syncing with my phone",
    ),
    "GPS Running Watch": (
        "{they} won't hold a charge",
        "the GPS never locks on",
        "the buttons stopped responding",
        "{they} keep{s} restarting every few minutes",
    ),
    "Smart Outdoor Watch": (
        "{they} won't hold a charge",
        "the screen stays blank",
        "the altimeter reads hundreds of feet off",
        "water got in under the glass",
    ),
    "Heart Rate Monitor": (
        "the sensor gives no reading at all",
        "the chest strap lost its stretch",
        "{they} keep{s} dropping the connection",
    ),
    "Step Counter": ("{they} stopped counting steps", "the clip broke off", "the display faded"),
    "Smart Hydration Bottle": (
        "the lid leaks",
        "the reminder light stopped working",
        "{they} won't charge",
    ),
    "Sport Earbuds": (
        "{they} won't hold a charge",
        "the left one stopped pairing",
        "the charging case won't close",
        "the sound keeps cutting out",
    ),
    "Resistance Bands": ("one band snapped", "the handles tore off the bands"),
    "Jump Rope": ("the handle came loose", "the cable frayed", "the bearings seized up"),
    "Adjustable Dumbbells": (
        "the weight selector jams",
        "one of the plates cracked",
        "the handle came loose",
    ),
    "Foam Roller": ("{they} arrived dented", "the surface is splitting along the seam"),
    "Kettlebell": ("the coating is flaking off", "the handle has a rough casting seam"),
    "Agility Ladder": ("one of the rungs snapped", "the straps tore at the clips"),
    "Training Cones": ("half of them arrived cracked", "{they} arrived bent out of shape"),
}
GENERIC = ("{they} arrived damaged", "one of the parts was missing from the box")


def defects_for(product_type: ProductType) -> tuple[str, ...]:
    """The defects a customer can report about a product of this type."""
    if product_type.noun in BY_TYPE:
        return BY_TYPE[product_type.noun]
    words = set(product_type.noun.split())
    if product_type.kind == FOOTWEAR:
        return SHOE + (CLEAT if "Cleats" in words else ())
    if product_type.kind == APPAREL:
        extra = tuple(d for keys, ds in GARMENT_PARTS if words & set(keys) for d in ds)
        return GARMENT + extra
    return GENERIC
