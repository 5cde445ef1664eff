    public function preview(Request $request)
    {
        $link = $request->input('link');
        $client = new \GuzzleHttp\Client(['timeout' => 5]);
        $response = $client->request('GET', $link);

        return response()->json([
            'status' => $response->getStatusCode(),
            'length' => strlen((string) $response->getBody()),
        ]);
    }
