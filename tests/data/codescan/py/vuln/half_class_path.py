    def get(self, request, *args, **kwargs):
        doc = request.GET["doc"]
        path = os.path.join(settings.MEDIA_ROOT, "docs", doc)
        return FileResponse(open(path, "rb"))

class ReportView(View):
