def invoices_for(tree, customer_id):
    return tree.xpath("//invoice[@customer='%s']" % customer_id)
