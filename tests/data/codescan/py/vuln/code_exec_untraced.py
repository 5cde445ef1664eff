def apply_rule(rule_source, context):
    exec(rule_source, {"ctx": context})
    return context
