"""The English of the payment chooser's texts (:mod:`rules.brazil.paying`): ``phrase.pay.*``
message templates, part of the engine's catalogue :data:`rules.brazil.messages.EN` (same syntax).

A :class:`~rules.brazil.paying.Cost`, :class:`~rules.brazil.paying.PaymentStep` and
:class:`~rules.brazil.paying.PayOption` carry each text twice: in English (``text``, ``prompt``,
``label``: these templates rendered with the game's own component names) and as a nested
message (``text_msg``, ``prompt_msg``, ``label_msg``: a key of this table and its
parameters), which every other language renders from its own catalogue
(``i18n/locales/<lang>/payment.toml``); so is :func:`rules.brazil.paying.payment_note_msg`.
Parameters name goods and components by term references (``@good.coffee``,
``@term.gold_card.agriculture``); a cost is a list of ``error.part.cost`` messages
(:func:`rules.brazil.payment.cost_param`).
"""

PAYMENT: dict[str, str] = {
    # what an action costs (Cost.text): "1 gold + 2 coffee"
    "phrase.pay.cost": "{cost:plus:nothing}",
    # the chooser's sentence for the next token (PaymentStep.prompt)
    "phrase.pay.step": (
        "Pay {token:plus:nothing} for {label} (token {k} of {n}; "
        "still to pay: {remaining:plus:nothing})."
    ),
    "phrase.pay.paid": "Paid in full for {label}.",
    # the sources that may pay a token (PayOption.label)
    "phrase.pay.option.reserve": "{good} from your reserve",
    "phrase.pay.option.at": "{good} at {hex}",
    "phrase.pay.option.on": "{good} on the {building:lower} at {hex}",
    "phrase.pay.option.capital": "{good} on the capital at {hex}",
    "phrase.pay.option.gold_card": "gold card {card} (as 1 gold)",
    "phrase.pay.option.gold_card_science": "gold card {card} (as 1 science)",
    "phrase.pay.option.combat_card": "combat card {card} ({why})",
    # why a combat card may pay: a monarch's power (the monarch's name) or these
    "phrase.pay.why.as_gold": "as 1 gold",
    "phrase.pay.why.war_chest": "{card}: as 1 gold",
    "phrase.pay.why.or_gold": "{why} or as 1 gold",
    # a payment that loses VP at the end (payment_note): "pays with Agriculture — 3 VP at the end"
    "phrase.pay.note": "pays with {cards} — {vp} VP at the end",
    "phrase.pay.and": "{head:list} and {last}",
}
