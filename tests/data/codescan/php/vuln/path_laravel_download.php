    public function download(Request $request)
    {
        return response()->download(storage_path('app/reports/' . $request->input('name')));
    }
