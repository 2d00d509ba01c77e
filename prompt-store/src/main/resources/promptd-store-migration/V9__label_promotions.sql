-- Promotions: `promptd label promote FROM TO` (or POST /manage/v1/labels/promote) points TO at what FROM points at on
-- many files in one transaction. Each file's move is still a label_moves row; the promotion itself is recorded once
-- here (who, when, FROM, TO), and its moves name it, so history shows one entry for the release, not one per file.
-- `promptd label revert N` is a promotion too: it puts back what promotion N moved, and `reverts` names N.
CREATE TABLE label_promotions (
  id              bigserial   PRIMARY KEY,
  from_label      text        NOT NULL,
  to_label        text        NOT NULL,
  library_version bigint      NOT NULL,
  author          text        NOT NULL,
  promoted_at     timestamptz NOT NULL DEFAULT now(),
  reverts         bigint      REFERENCES label_promotions (id)
);
ALTER TABLE label_moves ADD COLUMN promotion bigint REFERENCES label_promotions (id);
CREATE INDEX label_moves_by_promotion ON label_moves (promotion) WHERE promotion IS NOT NULL;
