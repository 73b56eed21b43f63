"""A whole store moved to another database (`move.move_store`): its source opened read only
(`opening`), the tables read off the databases (`tables`) and copied (`copying`), and the
copy checked table by table (`table_check`) and match by match (`match_check`).

Importers name the module they use: nothing is imported here.
"""
