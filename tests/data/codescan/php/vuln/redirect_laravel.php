        return redirect()->away($request->input('return_url'));
