"""Real North American area codes per US state.

A generated phone takes an area code of the customer's ShippingCity (an agent's: of a
state in their time zone), and the fictional exchange and line range the numbering plan
reserves for films and books (555-0100 to 555-0199), so that a number looks local yet can
never ring anyone. The realism measures (`crm_tui.org.realism_measures`) use the same
tables to check that the area code fits the state and the city.
"""

from __future__ import annotations

import random

AREA_CODES: dict[str, tuple[str, ...]] = {
    "AK": ("907",),
    "AL": ("205", "251", "256", "334"),
    "AZ": ("480", "520", "602", "623", "928"),
    "CA": ("213", "310", "408", "415", "510", "559", "619", "707", "714", "916", "949"),
    "CO": ("303", "719", "720", "970"),
    "CT": ("203", "475", "860"),
    "FL": ("305", "321", "407", "727", "786", "813", "850", "904", "941", "954"),
    "GA": ("229", "404", "470", "478", "678", "706", "770", "912"),
    "HI": ("808",),
    "IA": ("319", "515", "563", "641", "712"),
    "ID": ("208", "986"),
    "IL": ("217", "224", "309", "312", "630", "708", "773", "847"),
    "IN": ("219", "260", "317", "574", "765", "812"),
    "KS": ("316", "620", "785", "913"),
    "KY": ("270", "502", "606", "859"),
    "LA": ("225", "318", "337", "504", "985"),
    "MA": ("339", "413", "508", "617", "781", "978"),
    "MD": ("240", "301", "410", "443"),
    "ME": ("207",),
    "MI": ("248", "269", "313", "517", "586", "616", "734"),
    "MN": ("218", "507", "612", "651", "763", "952"),
    "MO": ("314", "417", "573", "636", "816"),
    "NC": ("252", "336", "704", "828", "910", "919", "980"),
    "NH": ("603",),
    "NJ": ("201", "609", "732", "856", "908", "973"),
    "NM": ("505", "575"),
    "NV": ("702", "725", "775"),
    "NY": ("212", "315", "347", "516", "518", "585", "607", "716", "718", "914"),
    "OH": ("216", "330", "419", "513", "614", "740", "937"),
    "OK": ("405", "539", "580", "918"),
    "OR": ("458", "503", "541", "971"),
    "PA": ("215", "267", "412", "484", "570", "610", "717", "814"),
    "SC": ("803", "843", "864"),
    "TN": ("423", "615", "731", "865", "901", "931"),
    "TX": ("210", "214", "281", "512", "713", "817", "915", "972"),
    "UT": ("385", "435", "801"),
    "VA": ("276", "434", "540", "571", "703", "757", "804"),
    "VT": ("802",),
    "WA": ("206", "253", "360", "425", "509"),
    "WI": ("262", "414", "608", "715", "920"),
}


# The area codes that serve each city customers live in (people.CITIES), overlays included.
CITY_AREA_CODES: dict[str, dict[str, tuple[str, ...]]] = {
    "CA": {
        "Los Angeles": ("213", "310", "323"),
        "San Diego": ("619", "858"),
        "San Jose": ("408", "669"),
        "Sacramento": ("916",),
        "Oakland": ("510", "341"),
        "Fresno": ("559",),
        "Irvine": ("949",),
        "Santa Rosa": ("707",),
        "San Francisco": ("415", "628"),
    },
    "TX": {
        "Houston": ("713", "281", "832"),
        "Austin": ("512", "737"),
        "Dallas": ("214", "469", "972"),
        "San Antonio": ("210",),
        "Fort Worth": ("817", "682"),
        "El Paso": ("915",),
        "Plano": ("972", "469"),
    },
    "FL": {
        "Miami": ("305", "786"),
        "Orlando": ("407", "321"),
        "Tampa": ("813",),
        "Jacksonville": ("904",),
        "Tallahassee": ("850",),
        "Sarasota": ("941",),
    },
    "NY": {
        "New York": ("212", "646", "917", "718", "347"),
        "Buffalo": ("716",),
        "Rochester": ("585",),
        "Albany": ("518",),
        "Syracuse": ("315",),
        "Ithaca": ("607",),
    },
    "PA": {
        "Philadelphia": ("215", "267"),
        "Pittsburgh": ("412",),
        "Allentown": ("610", "484"),
        "Harrisburg": ("717",),
        "Erie": ("814",),
    },
    "IL": {
        "Chicago": ("312", "773", "872"),
        "Naperville": ("630", "331"),
        "Springfield": ("217",),
        "Peoria": ("309",),
        "Evanston": ("847", "224"),
    },
    "OH": {
        "Columbus": ("614", "380"),
        "Cleveland": ("216",),
        "Cincinnati": ("513",),
        "Dayton": ("937",),
        "Toledo": ("419", "567"),
    },
    "GA": {
        "Atlanta": ("404", "470", "678"),
        "Savannah": ("912",),
        "Athens": ("706",),
        "Augusta": ("706",),
        "Marietta": ("770", "678"),
    },
    "NC": {
        "Charlotte": ("704", "980"),
        "Raleigh": ("919", "984"),
        "Durham": ("919", "984"),
        "Asheville": ("828",),
        "Wilmington": ("910",),
    },
    "MI": {
        "Detroit": ("313",),
        "Grand Rapids": ("616",),
        "Ann Arbor": ("734",),
        "Lansing": ("517",),
        "Kalamazoo": ("269",),
    },
    "NJ": {
        "Newark": ("973", "862"),
        "Jersey City": ("201", "551"),
        "Princeton": ("609",),
        "Hoboken": ("201", "551"),
        "Trenton": ("609",),
    },
    "VA": {
        "Richmond": ("804",),
        "Virginia Beach": ("757",),
        "Arlington": ("703", "571"),
        "Norfolk": ("757",),
        "Charlottesville": ("434",),
    },
    "WA": {
        "Seattle": ("206",),
        "Spokane": ("509",),
        "Tacoma": ("253",),
        "Bellevue": ("425",),
        "Olympia": ("360",),
    },
    "AZ": {
        "Phoenix": ("602", "623", "480"),
        "Tucson": ("520",),
        "Scottsdale": ("480",),
        "Mesa": ("480",),
        "Flagstaff": ("928",),
    },
    "MA": {
        "Boston": ("617", "857"),
        "Cambridge": ("617", "857"),
        "Worcester": ("508", "774"),
        "Springfield": ("413",),
        "Lowell": ("978", "351"),
    },
    "TN": {
        "Nashville": ("615", "629"),
        "Memphis": ("901",),
        "Knoxville": ("865",),
        "Chattanooga": ("423",),
    },
    "IN": {
        "Indianapolis": ("317",),
        "Fort Wayne": ("260",),
        "Bloomington": ("812",),
        "South Bend": ("574",),
    },
    "MO": {
        "St. Louis": ("314",),
        "Kansas City": ("816",),
        "Springfield": ("417",),
        "Columbia": ("573",),
    },
    "MD": {
        "Baltimore": ("410", "443"),
        "Annapolis": ("410", "443"),
        "Rockville": ("301", "240"),
        "Frederick": ("301", "240"),
    },
    "CO": {
        "Denver": ("303", "720"),
        "Boulder": ("303", "720"),
        "Colorado Springs": ("719",),
        "Fort Collins": ("970",),
    },
    "WI": {"Milwaukee": ("414",), "Madison": ("608",), "Green Bay": ("920",)},
    "MN": {
        "Minneapolis": ("612",),
        "St. Paul": ("651",),
        "Duluth": ("218",),
        "Rochester": ("507",),
    },
    "SC": {"Charleston": ("843",), "Columbia": ("803",), "Greenville": ("864",)},
    "AL": {"Birmingham": ("205",), "Huntsville": ("256",), "Mobile": ("251",)},
    "LA": {"New Orleans": ("504",), "Baton Rouge": ("225",), "Lafayette": ("337",)},
    "KY": {"Louisville": ("502",), "Lexington": ("859",), "Bowling Green": ("270",)},
    "OR": {
        "Portland": ("503", "971"),
        "Eugene": ("541", "458"),
        "Bend": ("541", "458"),
        "Salem": ("503", "971"),
    },
    "OK": {"Oklahoma City": ("405",), "Tulsa": ("918", "539"), "Norman": ("405",)},
    "CT": {"Hartford": ("860",), "New Haven": ("203", "475"), "Stamford": ("203", "475")},
    "UT": {
        "Salt Lake City": ("801", "385"),
        "Provo": ("801", "385"),
        "Park City": ("435",),
        "Ogden": ("801", "385"),
    },
    "NV": {"Las Vegas": ("702", "725"), "Reno": ("775",), "Henderson": ("702", "725")},
    "IA": {"Des Moines": ("515",), "Iowa City": ("319",), "Cedar Rapids": ("319",)},
    "KS": {"Wichita": ("316",), "Lawrence": ("785",), "Topeka": ("785",)},
    "NM": {"Albuquerque": ("505",), "Santa Fe": ("505",), "Las Cruces": ("575",)},
    "ID": {"Boise": ("208", "986"), "Coeur d'Alene": ("208", "986")},
    "NH": {"Manchester": ("603",), "Portsmouth": ("603",), "Concord": ("603",)},
    "ME": {"Portland": ("207",), "Bangor": ("207",)},
    "HI": {"Honolulu": ("808",), "Hilo": ("808",)},
    "VT": {"Burlington": ("802",), "Montpelier": ("802",)},
}
# A city's codes are its state's too.
for _state, _cities in CITY_AREA_CODES.items():
    AREA_CODES[_state] = tuple(
        dict.fromkeys(AREA_CODES[_state] + tuple(c for cs in _cities.values() for c in cs))
    )


def city_area_codes(state: str, city: str) -> tuple[str, ...]:
    """The area codes of `city` in `state`; the state's if the city is not listed."""
    return CITY_AREA_CODES.get(state, {}).get(city) or AREA_CODES.get(state, ())


def fictional_phone(r: random.Random, state: str, city: str = "") -> str:
    """`(AAA) 555-01XX` with an area code of `city` in `state` (of the state if the city is
    not listed, of any state if the state is not)."""
    codes = city_area_codes(state, city) or AREA_CODES["NY"]
    return f"({r.choice(codes)}) 555-01{r.randint(0, 99):02d}"
