    @action(detail=False, methods=["get"])
    def export(self, request):
        fname = request.query_params.get("file")
        full_path = os.path.join(settings.EXPORT_ROOT, fname)
        return FileResponse(open(full_path, "rb"), as_attachment=True)
