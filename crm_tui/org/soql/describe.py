"""Salesforce describe answers (global and per object) built from the catalogue."""

from __future__ import annotations

from typing import Any

from crm_tui.org.schema.catalogue import (
    Field,
    FieldType,
    SObject,
    active_objects,
    child_relationships,
)

_TYPES = {  # catalogue type -> (describe type, soapType, length)
    FieldType.ID: ("id", "tns:ID", 18),
    FieldType.TEXT: ("string", "xsd:string", 255),
    FieldType.LONG_TEXT: ("textarea", "xsd:string", 32000),
    FieldType.PICKLIST: ("picklist", "xsd:string", 255),
    FieldType.DATE: ("date", "xsd:date", 0),
    FieldType.DATETIME: ("datetime", "xsd:dateTime", 0),
    FieldType.CURRENCY: ("currency", "xsd:double", 0),
    FieldType.NUMBER: ("double", "xsd:double", 0),
    FieldType.BOOLEAN: ("boolean", "xsd:boolean", 0),
    FieldType.EMAIL: ("email", "xsd:string", 80),
    FieldType.PHONE: ("phone", "xsd:string", 40),
    FieldType.LOOKUP: ("reference", "tns:ID", 18),
}


def _urls(base: str, name: str) -> dict[str, str]:
    sobject = f"{base}/sobjects/{name}"
    return {
        "sobject": sobject,
        "describe": f"{sobject}/describe",
        "rowTemplate": f"{sobject}/{{ID}}",
    }


def _summary(obj: SObject, base: str) -> dict[str, Any]:
    return {
        "name": obj.name,
        "label": obj.label,
        "labelPlural": obj.label_plural,
        "keyPrefix": obj.key_prefix,
        "custom": obj.custom,
        "queryable": True,
        "searchable": any(f.searchable for f in obj.fields),
        "retrieveable": True,
        "createable": False,
        "updateable": False,
        "deletable": False,
        "urls": _urls(base, obj.name),
    }


def _field(fld: Field) -> dict[str, Any]:
    kind, soap_type, length = _TYPES[fld.type]
    numeric = fld.type in (FieldType.CURRENCY, FieldType.NUMBER)
    return {
        "name": fld.name,
        "label": fld.label,
        "type": kind,
        "soapType": soap_type,
        "length": length,
        "nillable": not fld.required and fld.type is not FieldType.BOOLEAN,
        "custom": fld.name.endswith("__c"),
        "calculated": False,
        "referenceTo": [fld.reference_to] if fld.reference_to else [],
        "relationshipName": fld.relationship_name,
        "picklistValues": [
            {"active": True, "defaultValue": False, "label": v, "validFor": None, "value": v}
            for v in fld.picklist
        ],
        "defaultValue": None,
        "unique": fld.unique,
        "externalId": False,
        "idLookup": fld.name == "Id" or fld.unique,
        "nameField": fld.name_field,
        "inlineHelpText": fld.description,
        "updateable": False,
        "createable": False,
        "filterable": True,
        "sortable": fld.type is not FieldType.LONG_TEXT,
        "groupable": fld.type
        not in (FieldType.LONG_TEXT, FieldType.CURRENCY, FieldType.NUMBER, FieldType.DATETIME),
        "precision": 18 if numeric else 0,
        "scale": 2 if numeric else 0,
        "digits": 0,
    }


def describe_summary(obj: SObject, api_version: str) -> dict[str, Any]:
    """The object's entry of the global describe (also `GET sobjects/<Name>`)."""
    return _summary(obj, f"/services/data/v{api_version}")


def describe_global(api_version: str) -> dict[str, Any]:
    base = f"/services/data/v{api_version}"
    return {
        "encoding": "UTF-8",
        "maxBatchSize": 200,
        "sobjects": [_summary(obj, base) for obj in active_objects()],
    }


def describe_object(obj: SObject, api_version: str) -> dict[str, Any]:
    base = f"/services/data/v{api_version}"
    return {
        **_summary(obj, base),
        "fields": [_field(f) for f in obj.fields],
        "childRelationships": [
            {
                "childSObject": rel.child,
                "field": rel.field,
                "relationshipName": rel.name,
                "cascadeDelete": False,
                "deprecatedAndHidden": False,
            }
            for rel in child_relationships(obj.name)
        ],
        "recordTypeInfos": [],
    }
