    public function import(Request $request)
    {
        $dom = new DOMDocument();
        $dom->loadXML($request->getContent(), LIBXML_NOENT);
        return count($dom->getElementsByTagName('item'));
    }
