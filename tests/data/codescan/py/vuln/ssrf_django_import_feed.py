@login_required
@require_POST
def import_feed(request):
    source = request.POST["source"]
    feed_name = request.POST.get("name", "Untitled")
    with urllib.request.urlopen(source, timeout=10) as resp:
        body = resp.read()
    Feed.objects.create(name=feed_name, raw=body.decode("utf-8", "replace"), owner=request.user)
    return redirect("feeds:list")
