def invoices_for(tree, customer_id):
    # XPath variables: the value is never parsed as part of the expression
    return tree.xpath("//invoice[@customer=$cid]", cid=customer_id)
