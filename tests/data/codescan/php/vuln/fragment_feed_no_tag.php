        $feedUrl = $request->validated()['feed_url'];
        $xml = Http::timeout(10)->get($feedUrl)->body();
