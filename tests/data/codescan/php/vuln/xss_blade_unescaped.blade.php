<div class="comment">
    <p class="author">{{ $comment->author->name }}</p>
    <div class="body">{!! $comment->body !!}</div>
</div>
