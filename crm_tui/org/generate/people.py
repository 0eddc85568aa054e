"""Users (service agents), person Accounts (customers) and their Contacts.

Latent variables: agent skill (User), shopping habit (Account), closure speed per
shipping state (State). Every agent works a shift in their own time zone (`worktime`);
phones are fictional (555-01xx) with an area code of the person's city or zone.
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, field, replace

from faker import Faker

from crm_tui.org.generate.areacodes import fictional_phone
from crm_tui.org.generate.assortment import assortment
from crm_tui.org.generate.common import DOMAIN, SEASONS, IdMaker, Sizes, rng
from crm_tui.org.generate.worktime import SUN_THU, TUE_SAT, WEEKDAYS, Shift, draw_shift
from crm_tui.org.schema import latent
from crm_tui.org.schema.ids import make_id
from crm_tui.org.store.orgstore import OrgStore

# Real US cities by state, with a rough weight (how many customers live there).
CITIES: dict[str, tuple[float, tuple[str, ...]]] = {
    "CA": (
        12,
        (
            "Los Angeles",
            "San Diego",
            "San Jose",
            "Sacramento",
            "Oakland",
            "Fresno",
            "Irvine",
            "Santa Rosa",
        ),
    ),
    "TX": (9, ("Houston", "Austin", "Dallas", "San Antonio", "Fort Worth", "El Paso", "Plano")),
    "FL": (7, ("Miami", "Orlando", "Tampa", "Jacksonville", "Tallahassee", "Sarasota")),
    "NY": (6, ("New York", "Buffalo", "Rochester", "Albany", "Syracuse", "Ithaca")),
    "PA": (4, ("Philadelphia", "Pittsburgh", "Allentown", "Harrisburg", "Erie")),
    "IL": (4, ("Chicago", "Naperville", "Springfield", "Peoria", "Evanston")),
    "OH": (4, ("Columbus", "Cleveland", "Cincinnati", "Dayton", "Toledo")),
    "GA": (3.5, ("Atlanta", "Savannah", "Athens", "Augusta", "Marietta")),
    "NC": (3.5, ("Charlotte", "Raleigh", "Durham", "Asheville", "Wilmington")),
    "MI": (3, ("Detroit", "Grand Rapids", "Ann Arbor", "Lansing", "Kalamazoo")),
    "NJ": (3, ("Newark", "Jersey City", "Princeton", "Hoboken", "Trenton")),
    "VA": (3, ("Richmond", "Virginia Beach", "Arlington", "Norfolk", "Charlottesville")),
    "WA": (3, ("Seattle", "Spokane", "Tacoma", "Bellevue", "Olympia")),
    "AZ": (2.5, ("Phoenix", "Tucson", "Scottsdale", "Mesa", "Flagstaff")),
    "MA": (2.5, ("Boston", "Cambridge", "Worcester", "Springfield", "Lowell")),
    "TN": (2.2, ("Nashville", "Memphis", "Knoxville", "Chattanooga")),
    "IN": (2, ("Indianapolis", "Fort Wayne", "Bloomington", "South Bend")),
    "MO": (2, ("St. Louis", "Kansas City", "Springfield", "Columbia")),
    "MD": (2, ("Baltimore", "Annapolis", "Rockville", "Frederick")),
    "CO": (2, ("Denver", "Boulder", "Colorado Springs", "Fort Collins")),
    "WI": (1.8, ("Milwaukee", "Madison", "Green Bay")),
    "MN": (1.8, ("Minneapolis", "St. Paul", "Duluth", "Rochester")),
    "SC": (1.5, ("Charleston", "Columbia", "Greenville")),
    "AL": (1.4, ("Birmingham", "Huntsville", "Mobile")),
    "LA": (1.3, ("New Orleans", "Baton Rouge", "Lafayette")),
    "KY": (1.3, ("Louisville", "Lexington", "Bowling Green")),
    "OR": (1.3, ("Portland", "Eugene", "Bend", "Salem")),
    "OK": (1.1, ("Oklahoma City", "Tulsa", "Norman")),
    "CT": (1, ("Hartford", "New Haven", "Stamford")),
    "UT": (1, ("Salt Lake City", "Provo", "Park City", "Ogden")),
    "NV": (1, ("Las Vegas", "Reno", "Henderson")),
    "IA": (0.9, ("Des Moines", "Iowa City", "Cedar Rapids")),
    "KS": (0.8, ("Wichita", "Lawrence", "Topeka")),
    "NM": (0.6, ("Albuquerque", "Santa Fe", "Las Cruces")),
    "ID": (0.5, ("Boise", "Coeur d'Alene")),
    "NH": (0.4, ("Manchester", "Portsmouth", "Concord")),
    "ME": (0.4, ("Portland", "Bangor")),
    "HI": (0.4, ("Honolulu", "Hilo")),
    "VT": (0.3, ("Burlington", "Montpelier")),
}

TIME_ZONES = (
    ("America/New_York", 45),
    ("America/Chicago", 28),
    ("America/Denver", 8),
    ("America/Los_Angeles", 15),
    ("America/Phoenix", 2),
    ("Pacific/Honolulu", 1),
    ("America/Anchorage", 1),
)
MAIL_DOMAINS = (
    "mail.example",
    "inbox.example",
    "post.example",
    "webmail.example",
    "netmail.example",
    "homemail.example",
)
# A state in each agent time zone, for the area code of the agent's phone.
ZONE_STATE = {
    "America/New_York": "NY",
    "America/Chicago": "IL",
    "America/Denver": "CO",
    "America/Los_Angeles": "CA",
    "America/Phoenix": "AZ",
    "Pacific/Honolulu": "HI",
    "America/Anchorage": "AK",
}
RECORD_TYPE_PERSON_ACCOUNT = make_id("012", 4242)  # fixed: the Person Account record type


@dataclass
class Agent:
    id: str
    name: str
    email: str
    skill: float
    shift: Shift
    specialties: list[int] = field(default_factory=list)  # issue indexes


@dataclass
class Customer:
    id: str
    contact_id: str
    name: str
    first: str
    email: str
    state: str
    city: str
    seasons: list[str]
    season_share: float  # share of orders placed in the customer's seasons
    categories: list[int]  # preferred category indexes
    activity: float  # relative number of orders


@dataclass
class People:
    agents: list[Agent]
    customers: list[Customer]
    state_speed: dict[str, float]
    counts: dict[str, int]


def ascii_slug(text: str) -> str:
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in norm.lower() if ch.isalnum())


# Surnames as their bearers write them (Faker's list has them flattened: "Oconnor").
_IRISH_O = frozenset(
    ("brien", "connor", "connell", "neill", "neil", "neal", "donnell", "hara", "reilly")
)
_SPACED = {"Delacruz": "De la Cruz", "Deleon": "De Leon", "Macdonald": "MacDonald"}


def surname_cased(last: str) -> str:
    """`last` cased as people write it: O'Connor, McClain, De la Cruz."""
    if last in _SPACED:
        return _SPACED[last]
    if last.startswith("Mc") and len(last) > 3:
        return "Mc" + last[2].upper() + last[3:]
    if last[:1] == "O" and last[1:].lower() in _IRISH_O:
        return "O'" + last[1].upper() + last[2:]
    return last


def unique_names(fake: Faker, r: random.Random, n: int, taken: set[str]) -> list[tuple[str, str]]:
    """`n` (first, last) pairs whose full names are unique (also against `taken`)."""
    firsts = [fake.first_name() for _ in range(min(400, 4 * n + 60))]
    lasts = [surname_cased(fake.last_name()) for _ in range(min(500, 4 * n + 80))]
    out: list[tuple[str, str]] = []
    tries = 0
    while len(out) < n:
        first, last = r.choice(firsts), r.choice(lasts)
        tries += 1
        if f"{first} {last}" in taken:
            if tries > 50 * n:  # pools exhausted (huge scales): widen them
                firsts.append(fake.first_name())
                lasts.append(surname_cased(fake.last_name()))
            continue
        taken.add(f"{first} {last}")
        out.append((first, last))
    return out


def build(store: OrgStore, seed: int, sizes: Sizes) -> People:
    r = rng(seed, "people")
    # own streams, so that shifts and phones leave every other draw as it was
    r_shift, r_phone = rng(seed, "shifts"), rng(seed, "phones")
    fake = Faker("en_US")
    fake.seed_instance(r.randrange(2**32))
    taken: set[str] = set()
    agents = _agents(store, r, r_shift, r_phone, unique_names(fake, r, sizes.users, taken))
    names = unique_names(fake, r, sizes.accounts, taken)
    customers = _customers(store, r, r_phone, names, agents)
    state_speed = _closure_speeds(store, r)
    counts = {"User": len(agents), "Account": len(customers), "Contact": len(customers)}
    return People(agents, customers, state_speed, counts)


def _agents(
    store: OrgStore,
    r: random.Random,
    r_shift: random.Random,
    r_phone: random.Random,
    names: list[tuple[str, str]],
) -> list[Agent]:
    """The support agents (Users), with their skill (latent) and shift."""
    user_id = IdMaker("User")
    agents: list[Agent] = []
    user_rows = []
    logins: set[str] = set()
    zones, zone_w = zip(*TIME_ZONES)
    for first, last in names:
        base = f"{ascii_slug(first)}.{ascii_slug(last)}"
        login, k = base, 1
        while login in logins:
            k += 1
            login = f"{base}{k}"
        logins.add(login)
        email = f"{login}@{DOMAIN}"
        # Skill: most agents are competent, a tail is clearly weaker.
        skill = round(min(0.98, max(0.05, r.betavariate(2.6, 1.7))), 3)
        zone = r.choices(zones, zone_w)[0]
        agent = Agent(user_id(), f"{first} {last}", email, skill, draw_shift(r_shift, zone))
        agents.append(agent)
        alias = (ascii_slug(first)[:1] + ascii_slug(last))[:8]
        user_rows.append(
            {
                "Id": agent.id,
                "Name": agent.name,
                "FirstName": first,
                "LastName": last,
                "Email": email,
                "Phone": fictional_phone(r_phone, ZONE_STATE[zone]),
                "Username": email,
                "Alias": alias,
                "LanguageLocaleKey": "en_US",
                "EmailEncodingKey": "UTF-8",
                "TimeZoneSidKey": zone,
                "LocaleSidKey": "en_US",
            }
        )
    store.insert("User", user_rows)
    store.set_latent(
        (*latent.USER_SKILL[:1], a.id, latent.USER_SKILL[1], latent.dumps(a.skill)) for a in agents
    )
    _cover_both_weekend_days(agents)
    return agents


def _cover_both_weekend_days(agents: list[Agent]) -> None:
    """Deal the agents who work a weekend day Sunday and Saturday in turn, so that live
    chat, open seven days a week, is as staffed on Saturdays as on Sundays."""
    covering = [a for a in agents if a.shift.workdays != WEEKDAYS]
    for k, agent in enumerate(covering):
        agent.shift = replace(agent.shift, workdays=TUE_SAT if k % 3 else SUN_THU)


def _customers(
    store: OrgStore,
    r: random.Random,
    r_phone: random.Random,
    names: list[tuple[str, str]],
    agents: list[Agent],
) -> list[Customer]:
    """The customers (person Accounts and their Contacts), with their shopping habit (latent)."""
    account_id, contact_id = IdMaker("Account"), IdMaker("Contact")
    states = list(CITIES)
    state_w = [CITIES[s][0] for s in states]
    season_names = list(SEASONS)
    customers: list[Customer] = []
    addresses: set[str] = set()
    acc_rows, con_rows = [], []
    for first, last in names:
        f, g = ascii_slug(first), ascii_slug(last)
        for _ in range(100):
            style = r.randrange(5)
            local = (
                f"{f}.{g}",
                f"{f}{g}{r.randint(1, 99)}",
                f"{f[0]}{g}",
                f"{f}_{g}{r.randint(60, 99)}",
                f"{g}.{f}",
            )[style]
            email = f"{local}@{r.choice(MAIL_DOMAINS)}"
            if email not in addresses:
                break
        addresses.add(email)
        state = r.choices(states, state_w)[0]
        city = r.choice(CITIES[state][1])
        seasons = sorted(r.sample(season_names, r.choice((1, 2, 2, 3, 3))), key=season_names.index)
        cats = sorted(r.sample(range(len(assortment().categories)), r.choice((2, 2, 3, 3, 4))))
        cust = Customer(
            account_id(),
            contact_id(),
            f"{first} {last}",
            first,
            email,
            state,
            city,
            seasons,
            round(r.uniform(0.55, 0.9), 2),
            cats,
            r.lognormvariate(0, 0.7),
        )
        customers.append(cust)
        acc_rows.append(
            {
                "Id": cust.id,
                "Name": cust.name,
                "FirstName": first,
                "LastName": last,
                "PersonEmail": email,
                "Phone": fictional_phone(r_phone, state, city),
                "RecordTypeId": RECORD_TYPE_PERSON_ACCOUNT,
                "ShippingCity": city,
                "ShippingState": state,
            }
        )
        con_rows.append(
            {
                "Id": cust.contact_id,
                "Name": cust.name,
                "FirstName": first,
                "LastName": last,
                "Email": email,
                "AccountId": cust.id,
                "OwnerId": r.choice(agents).id,
            }
        )
    store.insert("Account", acc_rows)
    store.insert("Contact", con_rows)
    store.set_latent(
        (
            "Account",
            c.id,
            latent.ACCOUNT_SHOPPING_HABIT[1],
            latent.dumps(
                {
                    "seasons": c.seasons,
                    "season_share": c.season_share,
                    "categories": [assortment().categories[i] for i in c.categories],
                }
            ),
        )
        for c in customers
    )
    return customers


def _closure_speeds(store: OrgStore, r: random.Random) -> dict[str, float]:
    """A multiplier on handle time per shipping state (latent)."""
    states = list(CITIES)
    # a few states are clearly faster
    state_speed = {}
    for s in states:
        roll = r.random()
        if roll < 0.2:
            speed = r.uniform(0.45, 0.7)
        elif roll < 0.8:
            speed = r.uniform(0.8, 1.2)
        else:
            speed = r.uniform(1.3, 1.8)
        state_speed[s] = round(speed, 3)
    store.set_latent(
        ("State", s, latent.STATE_CLOSURE_SPEED[1], latent.dumps(v)) for s, v in state_speed.items()
    )
    return state_speed
