        xml_bytes = request.FILES["sitemap"].read()
        parser = etree.XMLParser(resolve_entities=True)
        tree = etree.fromstring(xml_bytes, parser)
        urls = [loc.text for loc in tree.iter("{*}loc")]
