from django.utils.html import escape, format_html

def preview(request):
    signature = request.POST.get("signature", "")
    context = {"signature": format_html("<em>{}</em>", signature), "raw": escape(signature)}
    return render(request, "accounts/preview.html", context)
