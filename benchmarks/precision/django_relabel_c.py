"""Labels of django-relabel.jsonl by position, by labeller C (an AI agent, Claude), who wrote neither the checker nor the catalog and saw no other labels."""
R, A, F = "real", "arguable", "false"
LABELS = {
    0: (R, "msgstr has ``process_lhs()\", ``AbsoluteValue\", ``lhs\", ``self.lhs.lhs\" etc.: opening double backticks closed by a double quote, so the literals are broken and stray backticks render."),
    1: (R, "msgstr dropped ':class:`' and the opening backtick, leaving '로그 레코드 <logging.LogRecord>`의' with a stray closing backtick; the role is lost."),
    2: (R, "msgstr has ``lookup_name\" and ``name__ne\": closing double backticks replaced by a double quote, so the literals are broken."),
    3: (R, "msgstr has ``등록하십시오.필터', ``is_safe\", ``autoescape\" and ref:'...' with quotes in place of backticks; literals and :ref: roles are broken."),
    4: (R, "msgstr's 'common.ChildB.m2m``' lost its opening double backticks, leaving an unbalanced `` that throws off the following literals."),
    5: (R, "msgstr writes ':설정:`EMAIL_BACKEND`'; the role name 'setting' was translated, which Sphinx reports as an unknown role."),
    6: (R, "msgstr is ':설정:`DATABASES`'; the role name 'setting' was translated into an unknown role."),
    7: (R, "msgstr is ':설정:`CACHES`'; the role name 'setting' was translated into an unknown role."),
    8: (R, "msgstr begins 'ForeignKey`` 또는' with the opening double backticks lost, leaving an unbalanced literal delimiter."),
    9: (R, "msgstr has '(`email`` 의 디폴트값)': one opening backtick lost, so ``email`` is no longer a literal and the backticks are mismatched."),
    10: (R, "msgstr has '(:ref:`permissions 3 참조)': the :ref: lost its closing backtick and target, so the backticks mis-pair with the later :attr: roles."),
}
