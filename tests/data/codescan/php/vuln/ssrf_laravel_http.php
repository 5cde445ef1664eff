    public function preview(Request $request)
    {
        $response = Http::get($request->input('link'));

        return response()->json(['status' => $response->status(), 'length' => strlen($response->body())]);
    }
