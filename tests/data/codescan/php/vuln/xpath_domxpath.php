    $xp = new DOMXPath($doc);
    $nodes = $xp->query("//product[@sku='" . $request->get('sku') . "']");
