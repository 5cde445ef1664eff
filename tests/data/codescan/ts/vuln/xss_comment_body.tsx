type Comment = { id: string; author: string; body: string };

export function CommentBody({ comment }: { comment: Comment }) {
  return (
    <article className="comment">
      <header>{comment.author}</header>
      <div className="body" dangerouslySetInnerHTML={{ __html: comment.body }} />
    </article>
  );
}
