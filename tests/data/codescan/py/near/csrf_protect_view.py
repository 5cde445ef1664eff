from django.views.decorators.csrf import csrf_protect
from django.contrib.auth.decorators import login_required


@login_required
@csrf_protect
def delete_account(request):
    if request.method == "POST":
        request.user.delete()
        return redirect("home")
    return render(request, "confirm_delete.html")
