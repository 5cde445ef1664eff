    public function export(Request $request)
    {
        $path = storage_path('app/exports/') . $request->query('file');
        abort_unless(is_file($path), 404);
        return response()->download($path);
    }
